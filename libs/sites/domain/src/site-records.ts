/** What sites stores. Every record carries its organization; ids are opaque (libs/shared/ids). */

export const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;
export type SiteType = (typeof SITE_TYPES)[number];

export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export type SiteVisibility = (typeof SITE_VISIBILITIES)[number];

export type AgentsContext = 'excluded' | 'included';

export interface SiteRecord {
  _id: string;
  organizationId: string;
  type: SiteType;
  title: string;
  /** the site's path under the reader's public base URL; unique across the instance */
  basename: string;
  /** a custom hostname, unique across the instance */
  hostname?: string;
  proxy?: { origin: string; target: string };
  visibility: SiteVisibility;
  published: boolean;
  agentsContext: AgentsContext;
  adaptiveContent?: { enabled: boolean };
  adaptiveSchema?: { json: string; updatedAt: string };
  /** the default section (sites with sections) */
  defaultSectionId?: string;
  /** the default site space at the root (sites without sections) */
  defaultSiteSpaceId?: string;
  /** live site spaces (kept with every change of them) */
  siteSpaces: number;
  createdAt: string;
  updatedAt: string;
  /** bumped by every change of the site's structure: moves and sorts are compare-and-set on it */
  structureVersion: number;
}

export interface SectionRecord {
  _id: string;
  organizationId: string;
  siteId: string;
  title: string;
  description?: string;
  /** unique among the site's sections */
  path: string;
  condition?: string;
  icon?: string;
  sectionGroupId?: string;
  defaultSiteSpaceId?: string;
  /** position among the site's top-level items (or within its group): dense 0..n-1 */
  order: number;
  createdAt: string;
  updatedAt: string;
}

export interface SectionGroupRecord {
  _id: string;
  organizationId: string;
  siteId: string;
  title: string;
  icon?: string;
  /** position among the site's top-level items: dense 0..n-1, shared with ungrouped sections */
  order: number;
  createdAt: string;
  updatedAt: string;
}

export interface SiteSpaceRecord {
  _id: string;
  organizationId: string;
  siteId: string;
  /** absent: at the site's root (a site without sections) */
  sectionId?: string;
  spaceId: string;
  /** unique among the site spaces of its section (or the root) */
  path: string;
  condition?: string;
  /** set while the space is deleted (restorable): the site space is kept but not shown */
  spaceDeletedAt?: string;
  /** position among the site spaces of its section (or the root): dense 0..n-1 */
  order: number;
  createdAt: string;
  updatedAt: string;
}

export interface ShareLinkRecord {
  _id: string;
  organizationId: string;
  siteId: string;
  name: string;
  active: boolean;
  /** the secret the link's URL carries; shown to site administrators only, never logged */
  key: string;
  createdAt: string;
  updatedAt: string;
}
