import { defineEvent } from '@bindery/platform/events';
import { sitesEventsV1 as ev } from '@bindery/shared/contracts';

/**
 * Every event sites publishes (topic bindery.sites.v1), each type paired with its payload message
 * from proto/bindery/events/sites/v1 once: producers create and consumers decode through these definitions.
 * No payload carries a share-link key or a site token.
 */
export const SitesEvents = {
  siteCreated: defineEvent('sites.site.created', ev.SiteCreated),
  siteUpdated: defineEvent('sites.site.updated', ev.SiteUpdated),
  sitePublished: defineEvent('sites.site.published', ev.SitePublished),
  siteUnpublished: defineEvent('sites.site.unpublished', ev.SiteUnpublished),
  siteDeleted: defineEvent('sites.site.deleted', ev.SiteDeleted),
  siteCustomizationUpdated: defineEvent('sites.site_customization.updated', ev.SiteCustomizationUpdated),
};
