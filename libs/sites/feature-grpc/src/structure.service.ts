import { invalid, notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { sitesStructureV1 as structure } from '@bindery/shared/contracts';
import { ITEM_TYPES, SiteStructure } from '@bindery/sites/domain';
import { visibleSite } from './site-access';
import type { SitesDeps } from './sites-deps';
import { readableSiteSpace } from './site-spaces.service';
import { changeStructure } from './structure-change';
import { publishedReader, publishedSiteMessage, SiteReader, siteSpaceMessage, structureReader } from './structure-reads';
import { groupOf, positionOf, readStructure, sectionOf, structureMessage, viewOf } from './structure-view';
import { publishedCustomization } from './customization.service';
import { structureForScope } from './structure-scope';

/**
 * The site's structure: its sections and section groups in order (type "sections") when it has
 * sections, else its site spaces (type "siteSpaces"); only shown site spaces whose space the reader
 * can read. Members who may view the site, or anyone with an active share key of the published
 * share-link site.
 */
export async function getStructure(deps: SitesDeps, caller: Caller, req: structure.ListStructureRequest): Promise<structure.SiteStructure> {
  const reader = await structureReader(deps, caller, req.organizationId, req.siteId, req.shareKey);
  const { site, structure: s } = await readStructure(deps, reader.site);
  return structureMessage(await viewOf(deps, reader, site, s), s);
}

/**
 * Moves any item of the structure (site space, section, section group) before or after another
 * item of its level, or to the end of its level when no position is given; answers the item. A
 * site space whose space the caller cannot read is not there for them (404). Edit role.
 */
export async function sortStructure(deps: SitesDeps, caller: Caller, req: structure.SortStructureRequest): Promise<structure.StructureItem> {
  const { site } = await visibleSite(deps, caller, req.organizationId, req.siteId, 'edit');
  const item = req.item;
  if (!item || !(ITEM_TYPES as readonly string[]).includes(item.type)) throw invalid('item.type must be site-space, site-section or site-section-group.');
  if (item.type === 'site-space') await readableSiteSpace(deps, caller, site, item.id);
  const { structure: s, site: after } = await changeStructure(deps, site.organizationId, site._id, (s) => s.move(item, positionOf(req.position)));
  const asCaller = { spacesAs: caller, published: false };
  switch (item.type) {
    case 'site-space': {
      const message = siteSpaceMessage(await viewOf(deps, asCaller, after, s, [item.id]), s.siteSpace(item.id));
      if (!message) throw notFound('Site space');
      return { siteSpace: message };
    }
    case 'site-section':
      return { section: sectionOf(await viewOf(deps, asCaller, after, s, idsOfSections(s, [item.id])), s, item.id) };
    default:
      return {
        sectionGroup: groupOf(
          await viewOf(
            deps,
            asCaller,
            after,
            s,
            idsOfSections(
              s,
              s.sectionsOf(item.id).map((x) => x._id),
            ),
          ),
          s,
          item.id,
        ),
      };
  }
}

const idsOfSections = (s: SiteStructure, sectionIds: string[]) => s.state.siteSpaces.filter((ss) => ss.sectionId && sectionIds.includes(ss.sectionId)).map((ss) => ss._id);

/**
 * The published site with its structure, as a reader of it sees it: 404 unless the site is
 * published; members who may view it, and anyone when it is public or unlisted, or share-link with
 * an active key. Its spaces are read by sites itself and shown read-only; only shown site spaces.
 */
export async function getPublishedSite(deps: SitesDeps, caller: Caller, req: structure.ListStructureRequest): Promise<structure.PublishedSite> {
  const published = await publishedSiteOf(deps, await publishedReader(deps, caller, req.organizationId, req.siteId, req.shareKey));
  return caller.site ? { ...published, structure: structureForScope(published.structure, caller.site.spaceIds) } : published;
}

/** The published site with its structure as `reader` sees it (GetPublishedSite after its access check; the resolver's view). */
export async function publishedSiteOf(deps: SitesDeps, reader: Pick<SiteReader, 'site' | 'permissions' | 'spacesAs' | 'published'>): Promise<structure.PublishedSite> {
  const { site, structure: s } = await readStructure(deps, reader.site);
  const ctx = await viewOf(deps, reader, site, s);
  const defaultSection = site.defaultSectionId ? s.findSection(site.defaultSectionId) : undefined;
  const defaultSiteSpaceId = defaultSection ? defaultSection.defaultSiteSpaceId : site.defaultSiteSpaceId;
  const defaultSpace = s.state.siteSpaces.find((ss) => ss._id === defaultSiteSpaceId)?.spaceId;
  return {
    site: publishedSiteMessage(site, reader.permissions, defaultSpace, ctx.orgUrl),
    structure: structureMessage(ctx, s),
    ...(await publishedCustomization(deps, site)),
  };
}
