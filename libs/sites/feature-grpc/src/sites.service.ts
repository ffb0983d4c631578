import { conflict, invalid, notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import type { ClientSession } from '@bindery/platform/mongo';
import { sitesV1 as pb } from '@bindery/shared/contracts';
import { decodeCursor, resolveLimit, toPage } from '@bindery/shared/pagination';
import { duplicateKeyOn } from '@bindery/sites/data-access';
import {
  assertSiteAction,
  checkAgentsContext,
  checkBasename,
  checkHostname,
  checkProxyOrigin,
  checkSiteTitle,
  checkSiteType,
  checkVisibility,
  SiteRecord,
  SiteSetting,
  siteUrlOf,
  updateActionOf,
} from '@bindery/sites/domain';
import { orgSitePermissions, visibleSite } from './site-access';
import { siteEvents } from './site-events';
import { oneSiteMessage, siteMessages } from './site-messages';
import { nowOf, SitesDeps } from './sites-deps';
import { organizationUrl } from './org-addresses';

/** The organization's sites (members with a role), oldest first, filtered by a space they show, title, published state and types. */
export async function listSites(deps: SitesDeps, caller: Caller, req: pb.ListSitesRequest): Promise<pb.ListSitesResponse> {
  const permissions = await orgSitePermissions(deps, caller, req.organizationId);
  const types = req.types.map(checkSiteType);
  const siteIds = req.spaceId !== undefined ? await deps.dependents.siteIdsShowingSpace(req.organizationId, req.spaceId) : undefined;
  const query = { organizationId: req.organizationId, siteIds, title: req.title, published: req.published, types };
  const limit = resolveLimit(req.page?.limit);
  const rows = await deps.sites.page(query, limit, decodeCursor(req.page?.page || undefined));
  const count = await deps.sites.count(query);
  const page = toPage(
    rows,
    limit,
    count,
    (s) => ({ k: s.createdAt, id: s._id }),
    (s) => s,
  );
  return { items: await siteMessages(deps, page.items, permissions), page: { count: page.count, nextPage: page.nextPage } };
}

export async function getSite(deps: SitesDeps, caller: Caller, req: pb.SiteRef): Promise<pb.Site> {
  const { site, permissions } = await visibleSite(deps, caller, req.organizationId, req.siteId);
  return oneSiteMessage(deps, site, permissions);
}

/** The settings an update names, by their REST names. */
function settingsOf(req: pb.UpdateSiteRequest): SiteSetting[] {
  const named: Array<[SiteSetting, unknown]> = [
    ['title', req.title],
    ['visibility', req.visibility],
    ['basename', req.basename],
    ['hostname', req.hostname],
    ['proxy', req.proxy],
    ['adaptiveContent', req.adaptiveContentEnabled],
    ['agentsContext', req.agentsContext],
    ['defaultSiteSpace', req.defaultSiteSpace],
    ['defaultSiteSection', req.defaultSiteSection],
  ];
  return named.filter(([, v]) => v !== undefined).map(([k]) => k);
}

interface SettingsChange {
  set: Partial<SiteRecord>;
  unset: (keyof SiteRecord)[];
  changes: SiteSetting[];
}

/** The changes of the plain settings (everything but the defaults), checked, and the names of those that differ. */
function plainChanges(orgUrl: string, site: SiteRecord, req: pb.UpdateSiteRequest): SettingsChange {
  const set: Partial<SiteRecord> = {};
  const unset: (keyof SiteRecord)[] = [];
  const changes: SiteSetting[] = [];
  const put = <K extends keyof SiteRecord>(setting: SiteSetting, field: K, value: SiteRecord[K]) => {
    if (JSON.stringify(site[field]) === JSON.stringify(value)) return;
    set[field] = value;
    changes.push(setting);
  };
  const remove = (setting: SiteSetting, field: keyof SiteRecord) => {
    if (site[field] === undefined) return;
    unset.push(field);
    changes.push(setting);
  };
  if (req.title !== undefined) put('title', 'title', checkSiteTitle(req.title));
  if (req.visibility !== undefined) put('visibility', 'visibility', checkVisibility(req.visibility));
  if (req.basename !== undefined) put('basename', 'basename', checkBasename(req.basename));
  if (req.agentsContext !== undefined) put('agentsContext', 'agentsContext', checkAgentsContext(req.agentsContext));
  if (req.adaptiveContentEnabled !== undefined) put('adaptiveContent', 'adaptiveContent', { enabled: req.adaptiveContentEnabled });
  if (req.hostname) {
    if (req.hostname.value === undefined) remove('hostname', 'hostname');
    else put('hostname', 'hostname', checkHostname(req.hostname.value));
  }
  if (req.proxy) {
    if (req.proxy.value === undefined) remove('proxy', 'proxy');
    else if (site.proxy?.origin !== req.proxy.value) {
      const origin = checkProxyOrigin(req.proxy.value);
      put('proxy', 'proxy', { origin, target: siteUrlOf({ basename: set.basename ?? site.basename }, orgUrl) });
    }
  }
  return { set, unset, changes };
}

/**
 * Checks the new defaults against the site's structure as the transaction sees it and records them:
 * the default section on the site; the default site space on the site (one at the root) or on the
 * default section (one of that section). Anything else named is a 400.
 */
async function applyDefaults(deps: SitesDeps, site: SiteRecord, req: pb.UpdateSiteRequest, change: SettingsChange, at: string, session: ClientSession) {
  if (req.defaultSiteSection !== undefined) {
    const section = await deps.dependents.section(site._id, req.defaultSiteSection, session);
    if (!section) throw invalid('defaultSiteSection is not a section of this site.');
    if (site.defaultSectionId !== section._id) {
      change.set.defaultSectionId = section._id;
      change.changes.push('defaultSiteSection');
    }
  }
  if (req.defaultSiteSpace !== undefined) {
    const ss = await deps.dependents.siteSpace(site._id, req.defaultSiteSpace, session);
    if (!ss) throw invalid('defaultSiteSpace is not a site space of this site.');
    const defaultSection = change.set.defaultSectionId ?? site.defaultSectionId;
    if (!ss.sectionId) {
      if (site.defaultSiteSpaceId !== ss._id) {
        change.set.defaultSiteSpaceId = ss._id;
        change.changes.push('defaultSiteSpace');
      }
    } else if (ss.sectionId === defaultSection) {
      const section = await deps.dependents.section(site._id, ss.sectionId, session);
      if (section?.defaultSiteSpaceId !== ss._id) {
        await deps.dependents.setSectionDefault(site._id, ss.sectionId, ss._id, at, session);
        change.changes.push('defaultSiteSpace');
      }
    } else {
      throw invalid("defaultSiteSpace must be a site space at the site's root or in its default section.");
    }
  }
}

/**
 * Changes a site's settings: title and defaults need the edit action, visibility, basename,
 * hostname, proxy, adaptive content and agents context the admin action. A basename or hostname
 * another site has is a 409 (unique indexes decide). Side effects: one `sites.site.updated` naming
 * the settings that changed (none when nothing did); a change of the defaults moves the structure
 * version, in one transaction with the section it marks.
 */
export async function updateSite(deps: SitesDeps, caller: Caller, req: pb.UpdateSiteRequest): Promise<pb.Site> {
  const { site, permissions } = await visibleSite(deps, caller, req.organizationId, req.siteId, updateActionOf(settingsOf(req)));
  const at = nowOf(deps);
  const orgUrl = req.proxy?.value !== undefined ? await organizationUrl(deps, site.organizationId) : '';
  const write = async (session?: ClientSession) => {
    const change = plainChanges(orgUrl, site, req);
    if (session) await applyDefaults(deps, site, req, change, at, session);
    if (!change.changes.length) return site;
    const defaultsMoved = change.changes.some((c) => c === 'defaultSiteSpace' || c === 'defaultSiteSection');
    const settings = { set: change.set, unset: change.unset, at, structureMoved: defaultsMoved };
    const updated = await deps.sites.changeSettings(site.organizationId, site._id, settings, [siteEvents.updated(site, change.changes)], session);
    if (!updated) throw notFound('Site');
    return updated;
  };
  const defaults = req.defaultSiteSpace !== undefined || req.defaultSiteSection !== undefined;
  let updated: SiteRecord;
  try {
    updated = defaults ? await deps.transaction((session) => write(session)) : await write();
  } catch (err) {
    if (duplicateKeyOn(err, 'basename')) throw conflict(`Another site of the organization already has the basename "${req.basename}".`);
    if (duplicateKeyOn(err, 'hostname')) throw conflict(`Another site already has the hostname "${req.hostname?.value}".`);
    throw err;
  }
  return oneSiteMessage(deps, updated, permissions);
}

/**
 * Deletes a site (admin action) with its sections, section groups, site spaces, redirects and share
 * links, in one transaction with `sites.site.deleted`; its basename and hostname are free at once.
 * `deleted` is false when there was no such site (already deleted, or never there).
 */
export async function deleteSite(deps: SitesDeps, caller: Caller, req: pb.SiteRef): Promise<pb.DeleteResponse> {
  let permissions;
  try {
    permissions = await orgSitePermissions(deps, caller, req.organizationId);
  } catch {
    throw notFound('Site');
  }
  assertSiteAction(permissions, 'admin');
  const at = nowOf(deps);
  const site = { _id: req.siteId, organizationId: req.organizationId };
  const deleted = await deps.transaction(async (session) => {
    if (!(await deps.sites.remove(req.organizationId, req.siteId, at, [siteEvents.deleted(site)], session))) return false;
    await deps.dependents.removeAllOf(req.siteId, at, session);
    return true;
  });
  return { deleted };
}

/**
 * Publishes (or unpublishes) a site: the publish action. Idempotent: a site already so answers as it
 * is, without an event; otherwise `sites.site.published` (or `unpublished`) with the change.
 */
async function setPublished(deps: SitesDeps, caller: Caller, req: pb.SiteRef, published: boolean): Promise<pb.Site> {
  const { site, permissions } = await visibleSite(deps, caller, req.organizationId, req.siteId, 'publish');
  const event = published ? siteEvents.published(site) : siteEvents.unpublished(site);
  const updated = (await deps.sites.setPublished(site.organizationId, site._id, published, nowOf(deps), [event])) ?? (await deps.sites.get(site.organizationId, site._id));
  if (!updated) throw notFound('Site');
  return oneSiteMessage(deps, updated, permissions);
}

export const publishSite = (deps: SitesDeps, caller: Caller, req: pb.SiteRef) => setPublished(deps, caller, req, true);
export const unpublishSite = (deps: SitesDeps, caller: Caller, req: pb.SiteRef) => setPublished(deps, caller, req, false);
