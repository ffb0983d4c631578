import { precondition } from '@bindery/platform/errors';

/** A deleted space (or collection) can be restored for 7 days; after that it is purged for good. */
export const RESTORE_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

export function restorable(deletedAt: string, now: number): boolean {
  return now - Date.parse(deletedAt) <= RESTORE_WINDOW_MS;
}

export function assertRestorable(deletedAt: string, now: number): void {
  if (!restorable(deletedAt, now)) throw precondition('This space was deleted more than 7 days ago and can no longer be restored.');
}

/** Deleted before this instant: past the restore window, due for the purge. */
export function purgeCutoff(now: number): string {
  return new Date(now - RESTORE_WINDOW_MS - 1).toISOString();
}
