export * from './git-sync-client';
export * from './git-sync-events';
