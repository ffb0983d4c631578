import { conflict } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { newId } from '@bindery/shared/ids';
import { sitesStructureV1 as structure, sitesV1 as pb } from '@bindery/shared/contracts';
import { checkPath, sectionPath, SectionRecord, siteSpacePath, uniquePath } from '@bindery/sites/domain';
import { visibleSite } from './site-access';
import { nowOf, SitesDeps } from './sites-deps';
import { changeStructure } from './structure-change';
import { sectionMessage, sectionsContext, structureReader } from './structure-reads';
import { conditionChange, pageBy, positionOf, sectionOf, spaceToAdd, viewOf } from './structure-view';
import { organizationUrl } from './org-addresses';

const SECTION_TITLE_MIN = 2;
const SECTION_TITLE_MAX = 128;
const PATH_TAKEN = 'Another section of the site already has this path.';

/**
 * A page of the site's sections (by their order in their level), each with its shown site spaces
 * the reader can read. Members who may view the site, or anyone with an active share key of the
 * published share-link site.
 */
export async function listSections(deps: SitesDeps, caller: Caller, req: structure.ListStructureRequest): Promise<structure.ListSectionsResponse> {
  const reader = await structureReader(deps, caller, req.organizationId, req.siteId, req.shareKey);
  const { site } = reader;
  return pageBy(
    req.page,
    (limit, after) => deps.sections.page(site.organizationId, site._id, limit, after),
    () => deps.sections.count(site.organizationId, site._id),
    async (sections) => {
      const { ctx, siteSpaces } = await sectionsContext(deps, reader, sections);
      return sections.map((s) =>
        sectionMessage(
          ctx,
          s,
          siteSpaces.filter((ss) => ss.sectionId === s._id),
        ),
      );
    },
  );
}

/** A section's title from the space's when none is given (padded out when the space's is too short for a section). */
function sectionTitle(given: string | undefined, spaceTitle: string): string {
  const title = (given ?? spaceTitle).trim();
  return title.length >= SECTION_TITLE_MIN ? title.slice(0, SECTION_TITLE_MAX) : 'Untitled section';
}

/**
 * Adds a section at the end of the site's top level, with one site space of the space (the
 * caller must be able to read it, in the site's organization). Its title is the space's unless
 * given; its path comes from the title, made unique among the site's sections. The first section
 * becomes the default; a site whose site spaces were at its root gets them in a first section
 * (titled like the site) so that they stay in its structure. Edit role.
 */
export async function createSection(deps: SitesDeps, caller: Caller, req: structure.CreateSectionRequest): Promise<pb.SiteSection> {
  const { site } = await visibleSite(deps, caller, req.organizationId, req.siteId, 'edit');
  const space = await spaceToAdd(deps, caller, site, req.spaceId);
  const title = sectionTitle(req.title, space.title);
  const now = nowOf(deps);
  const ids = { section: newId(), siteSpace: newId(), wrapper: newId() };
  const common = { organizationId: site.organizationId, siteId: site._id, createdAt: now, updatedAt: now };
  const { structure: s, site: after } = await changeStructure(deps, site.organizationId, site._id, (s, current) => {
    const taken = new Set(s.state.sections.map((x) => x.path));
    const needsWrapper = !s.hasSections() && s.siteSpacesOf(undefined, { includeHidden: true }).length > 0;
    let wrapper: Omit<SectionRecord, 'order'> | undefined;
    if (needsWrapper) {
      const path = uniquePath(sectionPath(current.title), taken);
      taken.add(path);
      wrapper = { ...common, _id: ids.wrapper, title: sectionTitle(current.title, current.title), path };
    }
    const section = { ...common, _id: ids.section, title, path: uniquePath(sectionPath(title), taken), ...(req.icon ? { icon: req.icon } : {}) };
    const siteSpace = { ...common, _id: ids.siteSpace, spaceId: space.id, path: siteSpacePath(space.title) };
    s.addSection(section, siteSpace, wrapper);
  });
  const ctx = {
    site: after,
    sections: new Map(s.state.sections.map((x) => [x._id, x])),
    spaces: new Map([[space.id, space]]),
    orgUrl: await organizationUrl(deps, after.organizationId),
  };
  return sectionOf(ctx, s, ids.section);
}

/**
 * Changes a section: title, path (unique among the site's sections: 409), its default site space
 * (one of its own), condition (validated; null removes it), icon, description. Edit role.
 */
export async function updateSection(deps: SitesDeps, caller: Caller, req: structure.UpdateSectionRequest): Promise<pb.SiteSection> {
  const { site } = await visibleSite(deps, caller, req.organizationId, req.siteId, 'edit');
  if (req.path !== undefined) checkPath(req.path, 'path');
  const condition = conditionChange(req.condition);
  const { structure: s, site: after } = await changeStructure(
    deps,
    site.organizationId,
    site._id,
    (s) => {
      const section = s.section(req.sectionId);
      if (req.title !== undefined) section.title = req.title;
      if (req.path !== undefined && req.path !== section.path) {
        if (s.state.sections.some((x) => x.path === req.path)) throw conflict(PATH_TAKEN);
        section.path = req.path;
      }
      if (req.defaultSiteSpace !== undefined) s.setSectionDefault(section._id, req.defaultSiteSpace);
      if (condition) section.condition = condition.value;
      if (req.icon) section.icon = req.icon.value;
      if (req.description) section.description = req.description.value;
    },
    { pathTaken: PATH_TAKEN },
  );
  const ctx = await viewOf(
    deps,
    { spacesAs: caller, published: false },
    after,
    s,
    s.siteSpacesOf(req.sectionId).map((ss) => ss._id),
  );
  return sectionOf(ctx, s, req.sectionId);
}

/**
 * Deletes a section with its site spaces; the default section moves to the first one left.
 * `deleted` false: there was no such section (the gateway answers 204). Edit role.
 */
export async function deleteSection(deps: SitesDeps, caller: Caller, req: structure.StructureItemRef): Promise<pb.DeleteResponse> {
  const { site } = await visibleSite(deps, caller, req.organizationId, req.siteId, 'edit');
  const { result } = await changeStructure(deps, site.organizationId, site._id, (s) => {
    if (!s.findSection(req.id)) return false;
    s.removeSection(req.id);
    return true;
  });
  return { deleted: result };
}

/** Moves a section before or after another item of its level (the deprecated move; see sortStructure). Edit role. */
export async function moveSection(deps: SitesDeps, caller: Caller, req: structure.MoveItemRequest): Promise<pb.SiteSection> {
  const { site } = await visibleSite(deps, caller, req.organizationId, req.siteId, 'edit');
  const { structure: s, site: after } = await changeStructure(deps, site.organizationId, site._id, (s) => s.move({ type: 'site-section', id: req.id }, positionOf(req.position)));
  const ctx = await viewOf(
    deps,
    { spacesAs: caller, published: false },
    after,
    s,
    s.siteSpacesOf(req.id).map((ss) => ss._id),
  );
  return sectionOf(ctx, s, req.id);
}
