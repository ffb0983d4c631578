export * from './git-sync-server';
export * from './git-sync-runs';
export { GIT_SYNC_RUNS } from './git-sync.service';
