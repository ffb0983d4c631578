/** Git sync's rules: remotes, GitBook's repository layout. Pure functions, no I/O. */
export * from './remote';
export * from './layout';

export function describeCaller(service: string, userId: string): { service: string; callerUserId: string } {
  return { service, callerUserId: userId };
}

/** What git-sync keeps about a space's sync (one record per space; no credentials). */
export interface SyncRecord {
  _id: string;
  organizationId: string;
  url: string;
  repoName: string;
  provider?: string;
  treeUrl?: string;
  ref: string;
  commit?: string;
  revisionId?: string;
  /** the file each page was imported from or exported to */
  files: Record<string, string>;
  /** the SUMMARY.md group a top-level page was imported from (content has no groups written by changes) */
  groups?: Record<string, string>;
  /** the latest timestamp of an import or export that ran */
  lastTimestamp?: string;
  updatedAt: string;
}
