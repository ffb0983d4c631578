import { SitesEvents as E } from '@bindery/sites/client';
import type { SiteRecord } from '@bindery/sites/domain';
import { SOURCE } from './sites-deps';

type Site = Pick<SiteRecord, '_id' | 'organizationId'>;

/**
 * The `sites.site.*` events, keyed by the site. Payloads name the site and what changed, never a
 * share-link key, a token or a setting's secret value.
 */
export const siteEvents = {
  created: (site: Site & Pick<SiteRecord, 'title'>) =>
    E.siteCreated.create(SOURCE, site._id, { organizationId: site.organizationId, siteId: site._id, title: site.title }, site.organizationId),
  /** `changes`: the settings changed (REST names), or "adaptive-schema", "share-links" */
  updated: (site: Site, changes: string[]) => E.siteUpdated.create(SOURCE, site._id, { organizationId: site.organizationId, siteId: site._id, changes }, site.organizationId),
  published: (site: Site) => E.sitePublished.create(SOURCE, site._id, { organizationId: site.organizationId, siteId: site._id }, site.organizationId),
  unpublished: (site: Site) => E.siteUnpublished.create(SOURCE, site._id, { organizationId: site.organizationId, siteId: site._id }, site.organizationId),
  /** the customization was replaced (no site space) or a site space's overrides changed */
  customizationUpdated: (site: Site, siteSpaceId?: string) =>
    E.siteCustomizationUpdated.create(SOURCE, site._id, { organizationId: site.organizationId, siteId: site._id, siteSpaceId }, site.organizationId),
  deleted: (site: Site) => E.siteDeleted.create(SOURCE, site._id, { organizationId: site.organizationId, siteId: site._id }, site.organizationId),
};
