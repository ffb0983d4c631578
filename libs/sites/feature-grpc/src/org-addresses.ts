import { IdentityEvents as E } from '@bindery/identity/client';
import { EventHandlers, eventHandlers, on } from '@bindery/platform/events';
import { sessionOf } from '@bindery/platform/mongo';
import { organizationUrlOf } from '@bindery/sites/domain';
import type { SitesDeps } from './sites-deps';

/**
 * Sites' copy of each organization's hostname (the organization's part of published URLs), from
 * `identity.organization.updated`: applied when the event names the hostname among its changes, in
 * the consumer's transaction; an older event never overwrites a newer one. An organization none of
 * whose events carried a hostname is named by its id.
 */
export function organizationHandlers(deps: Pick<SitesDeps, 'organizations'>): EventHandlers {
  return eventHandlers(
    on(E.organizationUpdated, async (d, e, ctx) => {
      if (!d.changedFields.includes('hostname')) return;
      await deps.organizations.apply(d.organizationId, d.hostname || undefined, `${e.time}|${e.id}`, sessionOf(ctx));
    }),
  );
}

/** The URL the organization's sites live under (site-urls.ts), without a trailing slash. */
export async function organizationUrl(deps: Pick<SitesDeps, 'organizations' | 'readerUrl' | 'readerDomain'>, organizationId: string): Promise<string> {
  return organizationUrlOf(deps, { id: organizationId, hostname: await deps.organizations.hostnameOf(organizationId) });
}
