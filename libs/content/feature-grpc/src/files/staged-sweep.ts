import { logger } from '@bindery/platform/telemetry';
import type { ContentFiles } from './file-ports';

/** The kind (and schedule) of the sweep of staged files: with the purge's cadence (CONTENT_PURGE_EVERY_MS). */
export const STAGED_SWEEP_RUN = 'content.staged-files-sweep';

/**
 * Removes staged files no import took within CONTENT_STAGED_FILE_TTL_MS (an importer that died
 * between staging and ImportTree, or gave up). Safe to repeat and to run on two replicas at once.
 */
export async function runStagedSweep(files: Pick<ContentFiles, 'sweepStaged'>): Promise<{ removed: number }> {
  const removed = await files.sweepStaged();
  if (removed) logger.info('staged files removed', { removed });
  return { removed };
}
