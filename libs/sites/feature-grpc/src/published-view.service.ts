import { internalCaller } from '@bindery/platform/grpc';
import type { sitesStructureV1 as structure, sitesV1 } from '@bindery/shared/contracts';
import { sitesPublishedV1 as pb } from '@bindery/shared/contracts';
import { audienceSpaceIds, conditionHolds, type ConditionVisitor } from '@bindery/sites/domain';
import { resolveUrl } from './published-urls.service';
import type { SitesDeps } from './sites-deps';
import { publishedSiteOf } from './structure.service';

const SITES = internalCaller('sites');

/** The site spaces of a section (or the site's top level) whose condition holds for the visitor. */
const openSiteSpaces = (siteSpaces: sitesV1.SiteSpace[], visitor: ConditionVisitor) => siteSpaces.filter((ss) => conditionHolds(ss.condition, visitor));

/** A section as the visitor sees it; undefined when its condition fails. */
function openSection(section: sitesV1.SiteSection, visitor: ConditionVisitor): sitesV1.SiteSection | undefined {
  return conditionHolds(section.condition, visitor) ? { ...section, siteSpaces: openSiteSpaces(section.siteSpaces, visitor) } : undefined;
}

/** The published structure without what the visitor's conditions close (audienceSpaceIds' rule, item by item). */
export function structureForVisitor(s: structure.SiteStructure | undefined, visitor: ConditionVisitor): structure.SiteStructure | undefined {
  if (!s) return s;
  const items = s.items.flatMap((item): structure.StructureItem[] => {
    if (item.siteSpace) return conditionHolds(item.siteSpace.condition, visitor) ? [item] : [];
    if (item.section) {
      const section = openSection(item.section, visitor);
      return section ? [{ ...item, section }] : [];
    }
    if (item.sectionGroup) {
      const sections = item.sectionGroup.sections.flatMap((x) => openSection(x, visitor) ?? []);
      return [{ ...item, sectionGroup: { ...item.sectionGroup, sections } }];
    }
    return [item];
  });
  return { ...s, items };
}

/**
 * OpenPublishedUrl: a renderer's one call per request. The resolver's answer (resolvePublishedUrl,
 * with the share key given beside the URL), and when it opens content: the scope of the site token
 * it minted (what AuthenticateSiteToken would answer for it now: the spaces the site publishes to
 * this audience) and the published site as GetPublishedSite reads it, with the sections and site
 * spaces whose condition fails for the visitor left out. Every site space left is one of the
 * scope's spaces, so the renderer reads any of them with the same token. Reads only; no events;
 * the share key, the visitor token and the minted token are never logged.
 */
export async function openPublishedUrl(deps: SitesDeps, req: pb.OpenPublishedUrlRequest): Promise<pb.PublishedUrlView> {
  const { reply, opened } = await resolveUrl(deps, req.url, req.visitor, req.shareKey);
  if (!opened) return { content: reply, scope: undefined, site: undefined };
  const { site, shown, visitor, tokenId } = opened;
  const published = await publishedSiteOf(deps, { site, spacesAs: SITES, published: true });
  return {
    content: reply,
    scope: { organizationId: site.organizationId, siteId: site._id, spaceIds: audienceSpaceIds(shown, visitor), tokenId },
    site: { ...published, structure: structureForVisitor(published.structure, visitor) },
  };
}
