import type { sitesStructureV1 as structure, sitesV1 } from '@bindery/shared/contracts';
import { conditionHolds, type ConditionVisitor } from '@bindery/sites/domain';

type SiteSpaceOpen = (ss: sitesV1.SiteSpace) => boolean;
type SectionOpen = (section: sitesV1.SiteSection, siteSpaces: sitesV1.SiteSpace[]) => boolean;

/** A section as the reader sees it; undefined when it is closed to them. */
function openSection(section: sitesV1.SiteSection, spaceOpen: SiteSpaceOpen, sectionOpen: SectionOpen): sitesV1.SiteSection | undefined {
  const siteSpaces = section.siteSpaces.filter(spaceOpen);
  return sectionOpen(section, siteSpaces) ? { ...section, siteSpaces } : undefined;
}

/** The published structure without the site spaces and sections closed to the reader, item by item. */
function openStructure(s: structure.SiteStructure | undefined, spaceOpen: SiteSpaceOpen, sectionOpen: SectionOpen): structure.SiteStructure | undefined {
  if (!s) return s;
  const items = s.items.flatMap((item): structure.StructureItem[] => {
    if (item.siteSpace) return spaceOpen(item.siteSpace) ? [item] : [];
    if (item.section) {
      const section = openSection(item.section, spaceOpen, sectionOpen);
      return section ? [{ ...item, section }] : [];
    }
    if (item.sectionGroup) {
      const sections = item.sectionGroup.sections.flatMap((x) => openSection(x, spaceOpen, sectionOpen) ?? []);
      return [{ ...item, sectionGroup: { ...item.sectionGroup, sections } }];
    }
    return [item];
  });
  return { ...s, items };
}

/** The published structure without what the visitor's conditions close (audienceSpaceIds' rule, item by item). */
export function structureForVisitor(s: structure.SiteStructure | undefined, visitor: ConditionVisitor): structure.SiteStructure | undefined {
  return openStructure(
    s,
    (ss) => conditionHolds(ss.condition, visitor),
    (section) => conditionHolds(section.condition, visitor),
  );
}

/**
 * The published structure as a site token reads it: only the site spaces of its scope (the spaces
 * its audience is shown), and the sections left with one of them at least. The token carries its
 * audience's spaces, not its claims, so a section whose condition holds but whose every site space
 * is closed is left out too (a visitor's own view would show it empty).
 */
export function structureForScope(s: structure.SiteStructure | undefined, spaceIds: readonly string[]): structure.SiteStructure | undefined {
  const scope = new Set(spaceIds);
  return openStructure(
    s,
    (ss) => scope.has(ss.spaceId),
    (_section, siteSpaces) => siteSpaces.length > 0,
  );
}
