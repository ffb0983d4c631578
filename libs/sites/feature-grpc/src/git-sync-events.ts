import { GitSyncEvents } from '@bindery/git-sync/client';
import { EventEnvelope, EventHandlers, eventHandlers, on } from '@bindery/platform/events';
import { ClientSession, sessionOf } from '@bindery/platform/mongo';
import type { gitSyncEventsV1 } from '@bindery/shared/contracts';
import { siteEvents } from './site-events';
import { nowOf, SitesDeps } from './sites-deps';

/**
 * An import's Git redirects replace the space's (only its own: the sites' hand-written redirects are
 * other documents), in the event's transaction, so they apply with the consumer's marker, once. An
 * event of an import older than the one stored (delivered late, or a dead letter replayed) changes
 * nothing. Each site showing the space records `sites.site.updated` ("redirects"), as a hand-written
 * redirect's change does. Exports, standalone imports and events written before imports carried
 * redirects have no `redirects`: nothing to do.
 */
async function applyGitRedirects(deps: SitesDeps, d: gitSyncEventsV1.SyncCompleted, e: EventEnvelope, session: ClientSession | undefined): Promise<void> {
  if (d.direction !== 'import' || !d.redirects || !d.organizationId) return;
  const prior = await deps.gitRedirects.get(d.spaceId, session);
  if (prior && prior.at > e.time) return;
  const now = nowOf(deps);
  await deps.gitRedirects.replace(
    {
      _id: d.spaceId,
      organizationId: d.organizationId,
      commit: d.commit,
      revisionId: d.revisionId,
      redirects: d.redirects.items.map((r) => ({
        source: r.source,
        ...(r.pageId ? { pageId: r.pageId } : {}),
        ...(r.anchor ? { anchor: r.anchor } : {}),
        ...(r.url ? { url: r.url } : {}),
      })),
      at: e.time,
      updatedAt: now,
    },
    session,
  );
  for (const siteId of await deps.siteSpaces.sitesWithSpace(d.organizationId, d.spaceId, session)) {
    const site = { _id: siteId, organizationId: d.organizationId };
    // a site deleted meanwhile is not updated (the update finds no live site)
    await deps.sites.touch(d.organizationId, siteId, now, [siteEvents.updated(site, ['redirects'])], session);
  }
}

/** How sites follows git-sync (consumer group `sites.git-sync`): the space's Git redirects. */
export function gitSyncHandlers(deps: SitesDeps): EventHandlers {
  return eventHandlers(on(GitSyncEvents.syncCompleted, (d, e, ctx) => applyGitRedirects(deps, d, e, sessionOf(ctx))));
}
