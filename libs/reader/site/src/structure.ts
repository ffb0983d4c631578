import type { SectionView, SiteSpaceView, SiteView } from './source';

/** Every section of a site, groups opened, in order. */
export function sectionsOf(site: SiteView): SectionView[] {
  return site.structure.flatMap((item) => (item.kind === 'section' ? [item.section] : item.group.sections));
}

/** Every site space of a site with its section (sections first, in order; then a site's own site spaces). */
export function siteSpacesOf(site: SiteView): Array<{ section?: SectionView; siteSpace: SiteSpaceView }> {
  const sections = sectionsOf(site);
  if (sections.length) return sections.flatMap((section) => section.siteSpaces.map((siteSpace) => ({ section, siteSpace })));
  return site.siteSpaces.map((siteSpace) => ({ siteSpace }));
}

/** Where a site space sits: its section and the variants beside it (undefined when the site does not show it). */
export function placeOf(site: SiteView, siteSpaceId: string): { section?: SectionView; siteSpace: SiteSpaceView; variants: SiteSpaceView[] } | undefined {
  for (const section of sectionsOf(site)) {
    const siteSpace = section.siteSpaces.find((s) => s.id === siteSpaceId);
    if (siteSpace) return { section, siteSpace, variants: section.siteSpaces };
  }
  const siteSpace = site.siteSpaces.find((s) => s.id === siteSpaceId);
  return siteSpace ? { siteSpace, variants: site.siteSpaces } : undefined;
}

/** What a listing calls a site space: "Section", "Section › Variant", or the variant's title. */
export function listingTitle(site: SiteView, entry: { section?: SectionView; siteSpace: SiteSpaceView }): string {
  if (entry.section) return entry.section.siteSpaces.length > 1 ? `${entry.section.title} › ${entry.siteSpace.title}` : entry.section.title;
  return site.siteSpaces.length > 1 ? entry.siteSpace.title : '';
}

/** The site space showing a space, for links to another space of the site. */
export function siteSpaceOfSpace(site: SiteView, spaceId: string): SiteSpaceView | undefined {
  return siteSpacesOf(site).find((e) => e.siteSpace.spaceId === spaceId)?.siteSpace;
}
