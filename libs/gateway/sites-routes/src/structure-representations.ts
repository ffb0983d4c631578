import type { Urls } from '@bindery/gateway/identity-routes';
import { sitesStructureV1 as structure } from '@bindery/shared/contracts';
import { publishedCustomizationsJson } from './published-customization';
import { sectionGroupJson, sectionJson, siteJson, SiteLocation, siteSpaceJson } from './site-representations';

/** The official SiteStructureItem: a site space, a section or a section group. */
export function structureItemJson(item: structure.StructureItem, urls: Urls, at: SiteLocation) {
  if (item.siteSpace) return siteSpaceJson(item.siteSpace, urls, at);
  if (item.section) return sectionJson(item.section, urls, at);
  return sectionGroupJson(item.sectionGroup!, urls, at);
}

/** The official SiteStructure: `sections` (sections and groups in order) or `siteSpaces`. */
export function structureJson(s: structure.SiteStructure, urls: Urls, at: SiteLocation) {
  return { type: s.type, structure: s.items.map((i) => structureItemJson(i, urls, at)) };
}

/** The official PublishedContentSite: the site, its structure, its customizations (sites fills the defaults) and no scripts. */
export function publishedSiteJson(p: structure.PublishedSite, urls: Urls, at: SiteLocation) {
  return {
    object: 'published-content-site',
    site: siteJson(p.site!, urls),
    structure: structureJson(p.structure!, urls, at),
    customizations: publishedCustomizationsJson(p),
    scripts: [],
  };
}
