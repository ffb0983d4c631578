import { notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import type { ClientSession } from '@bindery/platform/mongo';
import { newId, newSecret } from '@bindery/shared/ids';
import { decodeCursor, Page, PageRequest, resolveLimit, toPage } from '@bindery/shared/pagination';
import { checkShareLinkName, SHARE_KEY_PREFIX, ShareLinkRecord, shareLinkUrl, SitePermissions, SiteRecord, siteUrlOf } from '@bindery/sites/domain';
import { visibleSite } from './site-access';
import { siteEvents } from './site-events';
import { nowOf, SitesDeps } from './sites-deps';
import { organizationUrl } from './org-addresses';

/** A share link as its caller sees it: its URL, which carries the key, only for callers with the admin action. */
export interface ShareLinkView {
  link: ShareLinkRecord;
  url?: string;
}

/** Which share link of which site. */
export interface ShareLinkRef {
  organizationId: string;
  siteId: string;
  shareLinkId: string;
}

function viewOf(orgUrl: string, site: SiteRecord, link: ShareLinkRecord, permissions: SitePermissions): ShareLinkView {
  return { link, url: permissions.admin ? shareLinkUrl(siteUrlOf(site, orgUrl), link.key) : undefined };
}

/** Records `sites.site.updated` ("share-links") on the site in the transaction of a share-link change. */
async function touchSite(deps: SitesDeps, site: SiteRecord, at: string, session: ClientSession): Promise<void> {
  const touched = await deps.sites.touch(site.organizationId, site._id, at, [siteEvents.updated(site, ['share-links'])], session);
  if (!touched) throw notFound('Site');
}

/** The site's share links, oldest first (view action; their URLs and keys for site administrators only). */
export async function listShareLinks(deps: SitesDeps, caller: Caller, organizationId: string, siteId: string, request: PageRequest | undefined): Promise<Page<ShareLinkView>> {
  const { site, permissions } = await visibleSite(deps, caller, organizationId, siteId);
  const limit = resolveLimit(request?.limit);
  const rows = await deps.shareLinks.page(site._id, limit, decodeCursor(request?.page || undefined));
  const orgUrl = await organizationUrl(deps, site.organizationId);
  return toPage(
    rows,
    limit,
    await deps.shareLinks.count(site._id),
    (l) => ({ k: l.createdAt, id: l._id }),
    (l) => viewOf(orgUrl, site, l, permissions),
  );
}

/**
 * Creates an active share link (admin action) with a fresh 256-bit key. It opens the site while the
 * site's visibility is share-link and it is published. Side effect: `sites.site.updated` ("share-links").
 */
export async function createShareLink(deps: SitesDeps, caller: Caller, organizationId: string, siteId: string, name: string): Promise<ShareLinkView> {
  const { site, permissions } = await visibleSite(deps, caller, organizationId, siteId, 'admin');
  const now = nowOf(deps);
  const link: ShareLinkRecord = {
    _id: newId(),
    organizationId: site.organizationId,
    siteId: site._id,
    name: checkShareLinkName(name),
    active: true,
    key: newSecret(SHARE_KEY_PREFIX),
    createdAt: now,
    updatedAt: now,
  };
  await deps.transaction(async (session) => {
    await deps.shareLinks.insert(link, session);
    await touchSite(deps, site, now, session);
  });
  return viewOf(await organizationUrl(deps, site.organizationId), site, link, permissions);
}

/** Renames or (de)activates a share link (admin action); a deactivated link stops opening the site at once. */
export async function updateShareLink(deps: SitesDeps, caller: Caller, ref: ShareLinkRef, change: { name?: string; active?: boolean }): Promise<ShareLinkView> {
  const { site, permissions } = await visibleSite(deps, caller, ref.organizationId, ref.siteId, 'admin');
  const now = nowOf(deps);
  const set: Partial<ShareLinkRecord> = { updatedAt: now };
  if (change.name !== undefined) set.name = checkShareLinkName(change.name);
  if (change.active !== undefined) set.active = change.active;
  const updated = await deps.transaction(async (session) => {
    const link = await deps.shareLinks.update(site._id, ref.shareLinkId, set, session);
    if (!link) throw notFound('Share link');
    await touchSite(deps, site, now, session);
    return link;
  });
  return viewOf(await organizationUrl(deps, site.organizationId), site, updated, permissions);
}

/** Deletes a share link for good (admin action): its key stops working at once. `deleted` is false when there was no such link. */
export async function deleteShareLink(deps: SitesDeps, caller: Caller, ref: ShareLinkRef): Promise<boolean> {
  const { site } = await visibleSite(deps, caller, ref.organizationId, ref.siteId, 'admin');
  const now = nowOf(deps);
  const deleted = await deps.transaction(async (session) => {
    if (!(await deps.shareLinks.remove(site._id, ref.shareLinkId, session))) return false;
    await touchSite(deps, site, now, session);
    return true;
  });
  return deleted;
}
