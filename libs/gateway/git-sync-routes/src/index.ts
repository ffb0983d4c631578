export * from './git-sync-routes';
