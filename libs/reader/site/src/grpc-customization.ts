import type { sitesStructureV1 } from '@bindery/shared/contracts';
import type { SiteCustomizations } from './source';

/** The customization a published read carries, in the reader's terms (a site never customized is not `custom`). */
export function customizationsOf(published: Pick<sitesStructureV1.PublishedSite, 'customization' | 'siteSpaceCustomizations'>): SiteCustomizations | undefined {
  if (!published.customization?.settings) return undefined;
  const siteSpaces: SiteCustomizations['siteSpaces'] = {};
  for (const s of published.siteSpaceCustomizations ?? []) if (s.settings) siteSpaces[s.siteSpaceId] = s.settings;
  return { site: published.customization.settings, siteSpaces, custom: !!published.customization.updatedAt };
}
