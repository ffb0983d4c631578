/** Git sync's rules: remotes, GitBook's repository layout. Pure functions, no I/O. */
export * from './remote';
export * from './layout';
export * from './git-redirects';

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
  /** the SUMMARY.md group a top-level page was imported from (syncs before groups were imported as groups) */
  groups?: Record<string, string>;
  /** `.gitbook.yaml`'s root at the last import (pages' files are relative to it) */
  root?: string;
  /** each page's print at the last sync (see pagePrint): an unchanged print leaves the page's file alone */
  prints?: Record<string, string>;
  /** SUMMARY.md's print at the last sync */
  summaryPrint?: string;
  /** the asset file of each imported file id (`.gitbook/assets/…`, relative to the root) */
  assets?: Record<string, string>;
  /** set when the space's last import failed for good, cleared by the next import that completes */
  lastImportFailure?: { at: string; reason: string } | null;
  /** the file of each reusable content (`.gitbook/includes/…`, relative to the root) */
  includes?: Record<string, string>;
  /** each reusable content's print at the last sync (see includePrint) */
  includePrints?: Record<string, string>;
  /** the latest timestamp of an import or export that ran */
  lastTimestamp?: string;
  updatedAt: string;
}
export * from './page-file';
