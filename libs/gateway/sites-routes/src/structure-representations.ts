import type { Urls } from '@bindery/gateway/identity-routes';
import { sitesStructureV1 as structure } from '@bindery/shared/contracts';
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

/**
 * What a published site shows before anyone customizes it: the official SiteCustomizationSettings
 * with every required setting at its plainest (sites keeps no customization yet).
 */
export const DEFAULT_CUSTOMIZATION = Object.freeze({
  styling: {
    theme: 'clean',
    primaryColor: { light: '#346DDB', dark: '#346DDB' },
    infoColor: { light: '#787878', dark: '#787878' },
    successColor: { light: '#00C950', dark: '#00C950' },
    warningColor: { light: '#FE9A00', dark: '#FE9A00' },
    dangerColor: { light: '#FB2C36', dark: '#FB2C36' },
    corners: 'rounded',
    depth: 'subtle',
    links: 'default',
    font: 'Inter',
    monospaceFont: 'IBMPlexMono',
    background: 'plain',
    icons: 'regular',
    sidebar: { background: 'default', list: 'default' },
    search: 'subtle',
  },
  internationalization: { locale: 'en' },
  favicon: {},
  header: { preset: 'default', links: [] },
  footer: { groups: [] },
  themes: { default: 'light', toggeable: true },
  pdf: { enabled: false },
  feedback: { enabled: false },
  ai: { mode: 'none' },
  advancedCustomization: { enabled: false },
  trademark: { enabled: true },
  externalLinks: { target: 'self' },
  pagination: { enabled: true },
  pageActions: { externalAI: false, markdown: true },
  git: { showEditLink: false },
  privacyPolicy: {},
  socialPreview: {},
  insights: { trackingCookie: false },
});

/** The official PublishedContentSite: the site, its structure, the default customization and no scripts. */
export function publishedSiteJson(p: structure.PublishedSite, urls: Urls, at: SiteLocation) {
  return {
    object: 'published-content-site',
    site: siteJson(p.site!, urls),
    structure: structureJson(p.structure!, urls, at),
    customizations: { site: DEFAULT_CUSTOMIZATION, siteSpaces: {} },
    scripts: [],
  };
}
