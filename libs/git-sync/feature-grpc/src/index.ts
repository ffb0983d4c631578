export * from './git-sync-server';
export * from './git-sync-runs';
