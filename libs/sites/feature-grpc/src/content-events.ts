import { ContentEvents as C } from '@bindery/content/client';
import { DomainError } from '@bindery/platform/errors';
import { EventHandlers, eventHandlers, on } from '@bindery/platform/events';
import { ClientSession, sessionOf } from '@bindery/platform/mongo';
import type { SiteStructure } from '@bindery/sites/domain';
import type { SitesDeps } from './sites-deps';
import { changeStructure } from './structure-change';

/**
 * Applies `work` to the structure of every site of the organization that shows the space, in the
 * event's transaction (so it applies with the consumer's marker, once). A site deleted meanwhile
 * is skipped.
 */
async function forSitesShowing(deps: SitesDeps, organizationId: string, spaceId: string, session: ClientSession | undefined, work: (s: SiteStructure) => unknown): Promise<void> {
  for (const siteId of await deps.siteSpaces.sitesWithSpace(organizationId, spaceId, session)) {
    try {
      await changeStructure(deps, organizationId, siteId, (s) => void work(s), { session });
    } catch (err) {
      if (!(err instanceof DomainError && err.kind === 'not_found')) throw err;
    }
  }
}

/**
 * How sites follow content (consumer group `sites.content`): the site spaces of a deleted space
 * are hidden where they stand (not listed, not counted, not in the structure or the published
 * site), and shown again when it is restored; those of a purged space are removed for good, as are
 * those of a space transferred to another organization from the sites of the one it left. Defaults,
 * orders and counts follow through changeStructure. A space's Git redirects go with a purge and
 * follow a transfer.
 */
export function contentHandlers(deps: SitesDeps): EventHandlers {
  return eventHandlers(
    on(C.spaceDeleted, (d, e, ctx) => forSitesShowing(deps, d.organizationId, d.spaceId, sessionOf(ctx), (s) => s.hideSpace(d.spaceId, e.time))),
    on(C.spaceRestored, (d, _e, ctx) => forSitesShowing(deps, d.organizationId, d.spaceId, sessionOf(ctx), (s) => s.showSpace(d.spaceId))),
    on(C.spacePurged, async (d, _e, ctx) => {
      await forSitesShowing(deps, d.organizationId, d.spaceId, sessionOf(ctx), (s) => s.removeSpace(d.spaceId));
      await deps.gitRedirects.remove(d.spaceId, sessionOf(ctx));
    }),
    on(C.spaceTransferred, async (d, _e, ctx) => {
      if (d.fromOrganizationId === d.organizationId) return;
      await forSitesShowing(deps, d.fromOrganizationId, d.spaceId, sessionOf(ctx), (s) => s.removeSpace(d.spaceId));
      await deps.gitRedirects.moveTo(d.spaceId, d.organizationId, sessionOf(ctx));
    }),
  );
}
