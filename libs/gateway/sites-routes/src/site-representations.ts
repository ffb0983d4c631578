import { spaceJson } from '@bindery/gateway/content-routes';
import type { Urls } from '@bindery/gateway/identity-routes';
import { sitesV1 as pb } from '@bindery/shared/contracts';

/**
 * REST representations of sites' resources in the official shapes, valid against both releases:
 * 0.130.0 requires `defaultSpace` (listed as required, never defined) and `features`; 0.202.0
 * requires `appliedType`, `defaultLevel` and `permissions` (with its own permission names, mapped
 * from sites' view/edit/publish/admin), and `draft` on site spaces and sections (nothing here is a
 * draft: every change is live). `urls.preview` (required by 0.202.0) is where the reader serves the
 * site, published or not.
 */
export function siteJson(s: pb.Site, urls: Urls) {
  const id = encodeURIComponent(s.id);
  const org = encodeURIComponent(s.organizationId);
  const p = s.permissions ?? { view: false, edit: false, publish: false, admin: false };
  return {
    object: 'site',
    id: s.id,
    type: s.type,
    appliedType: s.type,
    title: s.title,
    ...(s.hostname !== undefined ? { hostname: s.hostname } : {}),
    ...(s.basename !== undefined ? { basename: s.basename } : {}),
    ...(s.proxy ? { proxy: { origin: s.proxy.origin, target: s.proxy.target } } : {}),
    visibility: s.visibility,
    defaultLevel: 'inherit',
    published: s.published,
    siteSpaces: s.siteSpaces,
    defaultSpace: s.defaultSpace ?? null,
    createdAt: s.createdAt,
    ...(s.adaptiveContentEnabled !== undefined ? { adaptiveContent: { enabled: s.adaptiveContentEnabled } } : {}),
    agentsContext: s.agentsContext,
    features: [],
    permissions: {
      view: p.view,
      access: p.view,
      edit: p.edit,
      create: p.publish,
      admin: p.admin,
      installIntegration: p.admin,
      viewAdaptiveSchema: p.view,
      editAdaptiveSchema: p.admin,
    },
    urls: {
      location: `${urls.publicUrl}/v1/orgs/${org}/sites/${id}`,
      app: `${urls.appUrl}/o/${org}/sites/${id}`,
      ...(s.published && s.publishedUrl ? { published: s.publishedUrl } : {}),
      ...(s.previewUrl ? { preview: s.previewUrl } : {}),
    },
  };
}

/** Where a site's structure lives in the API: its organization and site. */
export interface SiteLocation {
  organizationId: string;
  siteId: string;
}

const siteBase = (urls: Urls, at: SiteLocation) => `${urls.publicUrl}/v1/orgs/${encodeURIComponent(at.organizationId)}/sites/${encodeURIComponent(at.siteId)}`;

/** The official SiteSpace; `space` is content's Space as the caller may see it. */
export function siteSpaceJson(ss: pb.SiteSpace, urls: Urls, at: SiteLocation) {
  return {
    object: 'site-space',
    id: ss.id,
    path: ss.path,
    ...(ss.sectionId ? { section: ss.sectionId } : {}),
    space: spaceJson(ss.space!, urls),
    title: ss.title,
    default: ss.default,
    draft: false,
    ...(ss.condition !== undefined ? { condition: ss.condition } : {}),
    urls: { location: `${siteBase(urls, at)}/site-spaces/${encodeURIComponent(ss.id)}`, ...(ss.publishedUrl ? { published: ss.publishedUrl } : {}) },
  };
}

/** The official SiteSection with its site spaces. */
export function sectionJson(s: pb.SiteSection, urls: Urls, at: SiteLocation) {
  return {
    object: 'site-section',
    id: s.id,
    title: s.title,
    ...(s.description !== undefined ? { description: s.description } : {}),
    default: s.default,
    draft: false,
    path: s.path,
    ...(s.condition !== undefined ? { condition: s.condition } : {}),
    ...(s.sectionGroupId ? { sectionGroup: s.sectionGroupId } : {}),
    ...(s.icon !== undefined ? { icon: s.icon } : {}),
    siteSpaces: s.siteSpaces.map((ss) => siteSpaceJson(ss, urls, at)),
    urls: { location: `${siteBase(urls, at)}/sections/${encodeURIComponent(s.id)}`, ...(s.publishedUrl ? { published: s.publishedUrl } : {}) },
  };
}

/** The official SiteSectionGroup with its sections. */
export function sectionGroupJson(g: pb.SiteSectionGroup, urls: Urls, at: SiteLocation) {
  const sections = g.sections.map((s) => sectionJson(s, urls, at));
  return {
    object: 'site-section-group',
    id: g.id,
    title: g.title,
    ...(g.icon !== undefined ? { icon: g.icon } : {}),
    draft: false,
    sections,
    // 0.202.0 requires `children` (sections, groups and external links; here a group holds sections only)
    children: sections,
  };
}

/** The official ShareLink; its published URL (which carries the key) only when sites gave it (site administrators). */
export function shareLinkJson(l: pb.ShareLink) {
  return {
    object: 'share-link',
    id: l.id,
    createdAt: l.createdAt,
    name: l.name,
    active: l.active,
    urls: l.publishedUrl ? { published: l.publishedUrl } : {},
  };
}
