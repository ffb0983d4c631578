import { notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import type { ClientSession } from '@bindery/platform/mongo';
import { sitesV1 as pb } from '@bindery/shared/contracts';
import { newId, newSecret } from '@bindery/shared/ids';
import { decodeCursor, resolveLimit, toPage } from '@bindery/shared/pagination';
import { checkShareLinkName, SHARE_KEY_PREFIX, ShareLinkRecord, shareLinkUrl, SitePermissions, SiteRecord, siteUrlOf } from '@bindery/sites/domain';
import { visibleSite } from './site-access';
import { siteEvents } from './site-events';
import { nowOf, SitesDeps } from './sites-deps';
import { organizationUrl } from './org-addresses';

/** The ShareLink message: its URL, which carries the key, only for callers with the admin action. */
function shareLinkMessage(orgUrl: string, site: SiteRecord, link: ShareLinkRecord, permissions: SitePermissions): pb.ShareLink {
  return {
    id: link._id,
    createdAt: link.createdAt,
    name: link.name,
    active: link.active,
    publishedUrl: permissions.admin ? shareLinkUrl(siteUrlOf(site, orgUrl), link.key) : undefined,
  };
}

/** Records `sites.site.updated` ("share-links") on the site in the transaction of a share-link change. */
async function touchSite(deps: SitesDeps, site: SiteRecord, at: string, session: ClientSession): Promise<void> {
  const touched = await deps.sites.touch(site.organizationId, site._id, at, [siteEvents.updated(site, ['share-links'])], session);
  if (!touched) throw notFound('Site');
}

/** The site's share links, oldest first (view action; their URLs and keys for site administrators only). */
export async function listShareLinks(deps: SitesDeps, caller: Caller, req: pb.ListShareLinksRequest): Promise<pb.ListShareLinksResponse> {
  const { site, permissions } = await visibleSite(deps, caller, req.organizationId, req.siteId);
  const limit = resolveLimit(req.page?.limit);
  const rows = await deps.shareLinks.page(site._id, limit, decodeCursor(req.page?.page || undefined));
  const orgUrl = await organizationUrl(deps, site.organizationId);
  const page = toPage(
    rows,
    limit,
    await deps.shareLinks.count(site._id),
    (l) => ({ k: l.createdAt, id: l._id }),
    (l) => shareLinkMessage(orgUrl, site, l, permissions),
  );
  return { items: page.items, page: { count: page.count, nextPage: page.nextPage } };
}

/**
 * Creates an active share link (admin action) with a fresh 256-bit key. It opens the site while the
 * site's visibility is share-link and it is published. Side effect: `sites.site.updated` ("share-links").
 */
export async function createShareLink(deps: SitesDeps, caller: Caller, req: pb.CreateShareLinkRequest): Promise<pb.ShareLink> {
  const { site, permissions } = await visibleSite(deps, caller, req.organizationId, req.siteId, 'admin');
  const now = nowOf(deps);
  const link: ShareLinkRecord = {
    _id: newId(),
    organizationId: site.organizationId,
    siteId: site._id,
    name: checkShareLinkName(req.name),
    active: true,
    key: newSecret(SHARE_KEY_PREFIX),
    createdAt: now,
    updatedAt: now,
  };
  await deps.transaction(async (session) => {
    await deps.shareLinks.insert(link, session);
    await touchSite(deps, site, now, session);
  });
  return shareLinkMessage(await organizationUrl(deps, site.organizationId), site, link, permissions);
}

/** Renames or (de)activates a share link (admin action); a deactivated link stops opening the site at once. */
export async function updateShareLink(deps: SitesDeps, caller: Caller, req: pb.UpdateShareLinkRequest): Promise<pb.ShareLink> {
  const { site, permissions } = await visibleSite(deps, caller, req.organizationId, req.siteId, 'admin');
  const now = nowOf(deps);
  const set: Partial<ShareLinkRecord> = { updatedAt: now };
  if (req.name !== undefined) set.name = checkShareLinkName(req.name);
  if (req.active !== undefined) set.active = req.active;
  const updated = await deps.transaction(async (session) => {
    const link = await deps.shareLinks.update(site._id, req.shareLinkId, set, session);
    if (!link) throw notFound('Share link');
    await touchSite(deps, site, now, session);
    return link;
  });
  return shareLinkMessage(await organizationUrl(deps, site.organizationId), site, updated, permissions);
}

/** Deletes a share link for good (admin action): its key stops working at once. `deleted` is false when there was no such link. */
export async function deleteShareLink(deps: SitesDeps, caller: Caller, req: pb.ShareLinkRef): Promise<pb.DeleteResponse> {
  const { site } = await visibleSite(deps, caller, req.organizationId, req.siteId, 'admin');
  const now = nowOf(deps);
  const deleted = await deps.transaction(async (session) => {
    if (!(await deps.shareLinks.remove(site._id, req.shareLinkId, session))) return false;
    await touchSite(deps, site, now, session);
    return true;
  });
  return { deleted };
}
