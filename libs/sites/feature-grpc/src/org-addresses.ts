import { IdentityEvents as E } from '@bindery/identity/client';
import { EventHandlers, eventHandlers, on } from '@bindery/platform/events';
import { sessionOf } from '@bindery/platform/mongo';
import { organizationUrlOf } from '@bindery/sites/domain';
import { siteEvents } from './site-events';
import { nowOf, SitesDeps } from './sites-deps';

/**
 * Sites' copy of each organization's hostname (the organization's part of published URLs), from
 * `identity.organization.updated`: applied when the event names the hostname among its changes, in
 * the consumer's transaction; an older event never overwrites a newer one. When the hostname is
 * another than before, each of the organization's sites records `sites.site.updated`
 * ("organization-hostname") in the same transaction: their URLs moved, and the reader drops what it
 * holds of them. An organization none of whose events carried a hostname is named by its id.
 */
export function organizationHandlers(deps: Pick<SitesDeps, 'organizations' | 'sites' | 'clock'>): EventHandlers {
  return eventHandlers(
    on(E.organizationUpdated, async (d, e, ctx) => {
      if (!d.changedFields.includes('hostname')) return;
      const session = sessionOf(ctx);
      if (!(await deps.organizations.apply(d.organizationId, d.hostname || undefined, `${e.time}|${e.id}`, session))) return;
      const at = nowOf(deps);
      for (const siteId of await deps.sites.idsOf(d.organizationId, session)) {
        const site = { _id: siteId, organizationId: d.organizationId };
        await deps.sites.touch(d.organizationId, siteId, at, [siteEvents.updated(site, ['organization-hostname'])], session);
      }
    }),
  );
}

/** The URL the organization's sites live under (site-urls.ts), without a trailing slash. */
export async function organizationUrl(deps: Pick<SitesDeps, 'organizations' | 'readerUrl' | 'readerDomain'>, organizationId: string): Promise<string> {
  return organizationUrlOf(deps, { id: organizationId, hostname: await deps.organizations.hostnameOf(organizationId) });
}
