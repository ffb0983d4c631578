import { OUTBOX_INDEX } from '@bindery/platform/events';
import { IndexPlan } from '@bindery/platform/mongo';

export const COLLECTIONS = {
  sites: 'sites',
  sections: 'sections',
  sectionGroups: 'section_groups',
  siteSpaces: 'site_spaces',
  shareLinks: 'share_links',
  redirects: 'redirects',
  /** each space's Git redirects (`_id` = space id), from git-sync's imports; read by every site showing the space */
  gitRedirects: 'git_redirects',
  signingKeys: 'signing_keys',
  visitorKeys: 'visitor_keys',
  /** each organization's hostname, from identity's events (org-addresses.ts): the organization's part of published URLs */
  organizations: 'organizations',
  /** a site's customization and its site spaces' overrides (site-customizations.repository.ts) */
  siteCustomizations: 'site_customizations',
} as const;

/** Collections whose documents carry outbox events for the relay. */
export const OUTBOX_COLLECTIONS = [COLLECTIONS.sites, COLLECTIONS.sections, COLLECTIONS.sectionGroups, COLLECTIONS.siteSpaces, COLLECTIONS.shareLinks, COLLECTIONS.redirects];

/** One index per query path; uniqueness (basenames per organization, hostnames and share keys per instance) from unique indexes. */
export const SITES_INDEXES: IndexPlan = {
  [COLLECTIONS.sites]: [
    { key: { organizationId: 1, createdAt: 1, _id: 1 }, name: 'org_created' },
    // a basename is unique in its organization (published URLs carry the organization); the
    // instance-wide index of earlier versions is dropped at start (dropRetiredIndexes)
    { key: { organizationId: 1, basename: 1 }, name: 'org_basename_unique', unique: true },
    // addresses of the earlier form (`<reader>/<basename>`): the first created site of a basename
    { key: { basename: 1, createdAt: 1, _id: 1 }, name: 'basename_created' },
    { key: { hostname: 1 }, name: 'hostname_unique', unique: true, partialFilterExpression: { hostname: { $type: 'string' } } },
    OUTBOX_INDEX,
  ],
  [COLLECTIONS.sections]: [{ key: { siteId: 1, order: 1, _id: 1 }, name: 'site_order' }, { key: { siteId: 1, path: 1 }, name: 'site_path_unique', unique: true }, OUTBOX_INDEX],
  [COLLECTIONS.sectionGroups]: [{ key: { siteId: 1, order: 1, _id: 1 }, name: 'site_order' }, OUTBOX_INDEX],
  [COLLECTIONS.siteSpaces]: [
    { key: { siteId: 1, sectionId: 1, order: 1, _id: 1 }, name: 'site_section_order' },
    { key: { siteId: 1, order: 1, _id: 1 }, name: 'site_order' },
    { key: { siteId: 1, sectionId: 1, path: 1 }, name: 'site_section_path_unique', unique: true },
    { key: { spaceId: 1 }, name: 'space' },
    { key: { organizationId: 1, spaceId: 1 }, name: 'org_space' },
    OUTBOX_INDEX,
  ],
  [COLLECTIONS.siteCustomizations]: [{ key: { siteId: 1 }, name: 'site' }],
  [COLLECTIONS.shareLinks]: [{ key: { siteId: 1, createdAt: 1, _id: 1 }, name: 'site_created' }, { key: { key: 1 }, name: 'key_unique', unique: true }, OUTBOX_INDEX],
  [COLLECTIONS.organizations]: [{ key: { hostname: 1 }, name: 'hostname', partialFilterExpression: { hostname: { $type: 'string' } } }],
  [COLLECTIONS.redirects]: [
    { key: { siteId: 1, source: 1, draft: 1 }, name: 'site_source_unique', unique: true },
    // the list's three orders, live and draft apart
    { key: { siteId: 1, draft: 1, createdAt: 1, _id: 1 }, name: 'site_draft_created' },
    { key: { siteId: 1, draft: 1, updatedAt: 1, _id: 1 }, name: 'site_draft_updated' },
    { key: { siteId: 1, draft: 1, source: 1, _id: 1 }, name: 'site_draft_source' },
    OUTBOX_INDEX,
  ],
};

/** Indexes of earlier versions that the plan no longer holds, by collection: dropped at start. */
export const RETIRED_INDEXES: Record<string, string[]> = {
  // basenames were unique across the instance before published URLs carried the organization
  [COLLECTIONS.sites]: ['basename_unique'],
};
