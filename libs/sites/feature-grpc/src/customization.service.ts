import { notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import type { ClientSession } from '@bindery/platform/mongo';
import { completeCustomization, CustomizationObject, effectiveCustomization, patchOverrides, SiteCustomizationRecord, SiteRecord } from '@bindery/sites/domain';
import { visibleSite } from './site-access';
import { siteEvents } from './site-events';
import { nowOf, SitesDeps } from './sites-deps';

const later = (a?: string, b?: string) => (!a ? b : !b ? a : a > b ? a : b);

/** 404 unless the site space is one of the site's (shown) site spaces. */
async function assertSiteSpace(deps: SitesDeps, site: SiteRecord, siteSpaceId: string): Promise<void> {
  const shown = await deps.siteSpaces.shownOfSite(site.organizationId, site._id);
  if (!shown.some((ss) => ss._id === siteSpaceId)) throw notFound('Site space');
}

/** Records `sites.site_customization.updated` on the site (and moves its version, so rendered pages are not reused). */
async function touchSite(deps: SitesDeps, site: SiteRecord, at: string, session: ClientSession, siteSpaceId?: string): Promise<void> {
  const touched = await deps.sites.touch(site.organizationId, site._id, at, [siteEvents.customizationUpdated(site, siteSpaceId)], session);
  if (!touched) throw notFound('Site');
}

/** Customization settings and when they last changed (absent: never set, the defaults). */
export interface CustomizationView {
  settings: CustomizationObject;
  updatedAt?: string;
}

/** Which site space of which site. */
export interface SiteSpaceRef {
  organizationId: string;
  siteId: string;
  siteSpaceId: string;
}

const answer = (settings: CustomizationObject, updatedAt?: string): CustomizationView => ({ settings, updatedAt });

/** The site's customization (view action), defaults filled. */
export async function getSiteCustomization(deps: SitesDeps, caller: Caller, organizationId: string, siteId: string): Promise<CustomizationView> {
  const { site } = await visibleSite(deps, caller, organizationId, siteId);
  const stored = await deps.customizations.get(site._id);
  return answer(completeCustomization(stored?.settings), stored?.updatedAt);
}

/**
 * Replaces the site's customization (admin action): what the body leaves out takes its default.
 * Side effect: `sites.site_customization.updated`.
 */
export async function updateSiteCustomization(
  deps: SitesDeps,
  caller: Caller,
  organizationId: string,
  siteId: string,
  given: CustomizationObject | undefined,
): Promise<CustomizationView> {
  const { site } = await visibleSite(deps, caller, organizationId, siteId, 'edit');
  const now = nowOf(deps);
  const settings = completeCustomization(given ?? {});
  await deps.transaction(async (session) => {
    await deps.customizations.put({ organizationId: site.organizationId, siteId: site._id, settings, updatedAt: now }, session);
    await touchSite(deps, site, now, session);
  });
  return answer(settings, now);
}

/** A site space's effective customization (view action): the site's with the site space's overrides applied. */
export async function getSiteSpaceCustomization(deps: SitesDeps, caller: Caller, req: SiteSpaceRef): Promise<CustomizationView> {
  const { site } = await visibleSite(deps, caller, req.organizationId, req.siteId);
  await assertSiteSpace(deps, site, req.siteSpaceId);
  const [own, overrides] = await Promise.all([deps.customizations.get(site._id), deps.customizations.get(site._id, req.siteSpaceId)]);
  return answer(effectiveCustomization(own?.settings, overrides?.settings), later(own?.updatedAt, overrides?.updatedAt));
}

/**
 * Merges overrides into the site space's (admin action): present fields replace, a null removes
 * that override. Side effect: `sites.site_customization.updated` with the site space.
 */
export async function overrideSiteSpaceCustomization(deps: SitesDeps, caller: Caller, req: SiteSpaceRef, given: CustomizationObject | undefined): Promise<CustomizationView> {
  const { site } = await visibleSite(deps, caller, req.organizationId, req.siteId, 'edit');
  await assertSiteSpace(deps, site, req.siteSpaceId);
  const now = nowOf(deps);
  const [own, overrides] = await deps.transaction(async (session) => {
    const current = await deps.customizations.get(site._id, req.siteSpaceId, session);
    const record: Omit<SiteCustomizationRecord, '_id'> = {
      organizationId: site.organizationId,
      siteId: site._id,
      siteSpaceId: req.siteSpaceId,
      settings: patchOverrides(current?.settings, given ?? {}),
      updatedAt: now,
    };
    await deps.customizations.put(record, session);
    await touchSite(deps, site, now, session, req.siteSpaceId);
    return [await deps.customizations.get(site._id, undefined, session), record] as const;
  });
  return answer(effectiveCustomization(own?.settings, overrides.settings), later(own?.updatedAt, overrides.updatedAt));
}

/** Removes every override of the site space (admin action); `deleted` is false when it had none. */
export async function deleteSiteSpaceCustomization(deps: SitesDeps, caller: Caller, req: SiteSpaceRef): Promise<boolean> {
  const { site } = await visibleSite(deps, caller, req.organizationId, req.siteId, 'edit');
  await assertSiteSpace(deps, site, req.siteSpaceId);
  const now = nowOf(deps);
  const deleted = await deps.transaction(async (session) => {
    if (!(await deps.customizations.remove(site._id, req.siteSpaceId, session))) return false;
    await touchSite(deps, site, now, session, req.siteSpaceId);
    return true;
  });
  return deleted;
}

/** What a published site's readers are shown: the site's settings and each overriding site space's effective ones. */
export async function publishedCustomization(
  deps: SitesDeps,
  site: SiteRecord,
): Promise<{ customization: CustomizationView; siteSpaceCustomizations: Array<{ siteSpaceId: string; settings: CustomizationObject }> }> {
  const records = await deps.customizations.ofSite(site._id);
  const own = records.find((r) => !r.siteSpaceId);
  return {
    customization: answer(completeCustomization(own?.settings), own?.updatedAt),
    siteSpaceCustomizations: records
      .filter((r) => r.siteSpaceId)
      .map((r) => ({ siteSpaceId: r.siteSpaceId as string, settings: effectiveCustomization(own?.settings, r.settings) })),
  };
}
