import { purgeCutoff } from '@bindery/content/domain';
import { removeContent } from './revisions/copy-content';
import { ContentEvents as E } from '@bindery/content/client';
import { logger } from '@bindery/platform/telemetry';
import { ContentDeps, nowOf, SOURCE } from './content-deps';
import { WEBSITE_IMPORT_RUN } from './imports/import-website.service';

const BATCH = 100;

/** The kind (and schedule) of the purge run: every CONTENT_PURGE_EVERY_MS, one replica per occurrence. */
export const PURGE_RUN = 'content.purge';

/**
 * Removes spaces and collections deleted more than 7 days ago, for good. It runs as a scheduled
 * run, so normally one replica at a time; the steps stay safe to repeat and to run on several
 * replicas at once (a run taken over from a worker that seemed dead may overlap it):
 * 1. claim: a conditional write sets `purgedAt` and records `content.<kind>.purged` in the same
 *    write, so exactly one replica claims each item and the event is recorded once;
 * 2. remove: documents whose purge event has been relayed are deleted, with their revisions and
 *    grants. A crash between the steps leaves a claimed document that the next run removes.
 */
export async function runPurge(deps: ContentDeps): Promise<{ claimed: number; removed: number }> {
  const now = deps.clock();
  const cutoff = purgeCutoff(now);
  const at = nowOf(deps);
  let claimed = 0;
  for (const s of await deps.spaces.duePurge(cutoff, BATCH)) {
    const event = E.spacePurged.create(SOURCE, s._id, { organizationId: s.organizationId, spaceId: s._id }, s.organizationId);
    if (await deps.spaces.claimPurge(s._id, cutoff, at, [event])) claimed++;
  }
  for (const c of await deps.collections.duePurge(cutoff, BATCH)) {
    const event = E.collectionPurged.create(SOURCE, c._id, { organizationId: c.organizationId, collectionId: c._id }, c.organizationId);
    if (await deps.collections.claimPurge(c._id, cutoff, at, [event])) claimed++;
  }
  const spaces = await deps.spaces.removePurged();
  for (const id of spaces) {
    await removeContent(deps, id);
    await deps.revisions.removeOfSpace(id);
    await deps.changeRequestItems.removeOfSpace(id);
    await deps.imports?.runs.removeOf(WEBSITE_IMPORT_RUN, { spaceId: id });
  }
  await deps.grants.removeFor('space', spaces);
  const collections = await deps.collections.removePurged();
  await deps.grants.removeFor('collection', collections);
  await deps.grants.removeWithdrawn();
  const removed = spaces.length + collections.length;
  if (claimed || removed) logger.info('purge', { claimed, removed });
  return { claimed, removed };
}
