import type { Caller } from '@bindery/platform/grpc';
import { newId } from '@bindery/shared/ids';
import { sitesStructureV1 as structure, sitesV1 as pb } from '@bindery/shared/contracts';
import type { SiteRecord, SiteStructure } from '@bindery/sites/domain';
import { visibleSite } from './site-access';
import { nowOf, SitesDeps } from './sites-deps';
import { changeStructure } from './structure-change';
import { groupMessage, sectionMessage, sectionsContext, structureReader } from './structure-reads';
import { groupOf, pageBy, positionOf, viewOf } from './structure-view';

/**
 * A page of the site's section groups (by their place in the top level), each with its sections
 * and their shown site spaces the reader can read. Members who may view the site, or anyone with
 * an active share key of the published share-link site.
 */
export async function listSectionGroups(deps: SitesDeps, caller: Caller, req: structure.ListStructureRequest): Promise<structure.ListSectionGroupsResponse> {
  const reader = await structureReader(deps, caller, req.organizationId, req.siteId, req.shareKey);
  const { site } = reader;
  return pageBy(
    req.page,
    (limit, after) => deps.sectionGroups.page(site.organizationId, site._id, limit, after),
    () => deps.sectionGroups.count(site.organizationId, site._id),
    async (groups) => {
      const sections = await deps.sections.ofGroups(
        site.organizationId,
        site._id,
        groups.map((g) => g._id),
      );
      const { ctx, siteSpaces } = await sectionsContext(deps, reader, sections);
      return groups.map((g) =>
        groupMessage(
          ctx,
          g,
          sections
            .filter((s) => s.sectionGroupId === g._id)
            .map((s) =>
              sectionMessage(
                ctx,
                s,
                siteSpaces.filter((ss) => ss.sectionId === s._id),
              ),
            ),
        ),
      );
    },
  );
}

/** The group as the caller sees it after a change. */
async function answer(deps: SitesDeps, caller: Caller, site: SiteRecord, s: SiteStructure, groupId: string): Promise<pb.SiteSectionGroup> {
  const sections = new Set(s.sectionsOf(groupId).map((x) => x._id));
  const ctx = await viewOf(
    deps,
    { spacesAs: caller, published: false },
    site,
    s,
    s.state.siteSpaces.filter((ss) => ss.sectionId && sections.has(ss.sectionId)).map((ss) => ss._id),
  );
  return groupOf(ctx, s, groupId);
}

/**
 * Adds a section group to the site's top level, where the first of `sections` stood (else at
 * the end), and moves those sections into it in the order given (400 for an id that is no section
 * of the site). Edit role.
 */
export async function createSectionGroup(deps: SitesDeps, caller: Caller, req: structure.CreateSectionGroupRequest): Promise<pb.SiteSectionGroup> {
  const { site } = await visibleSite(deps, caller, req.organizationId, req.siteId, 'edit');
  const now = nowOf(deps);
  const id = newId();
  const group = { _id: id, organizationId: site.organizationId, siteId: site._id, title: req.title, ...(req.icon ? { icon: req.icon } : {}), createdAt: now, updatedAt: now };
  const { structure: s, site: after } = await changeStructure(deps, site.organizationId, site._id, (s) => s.addGroup(group, req.sectionIds));
  return answer(deps, caller, after, s, id);
}

/** Changes a group's title or icon (null removes it). Edit role. */
export async function updateSectionGroup(deps: SitesDeps, caller: Caller, req: structure.UpdateSectionGroupRequest): Promise<pb.SiteSectionGroup> {
  const { site } = await visibleSite(deps, caller, req.organizationId, req.siteId, 'edit');
  const { structure: s, site: after } = await changeStructure(deps, site.organizationId, site._id, (s) => {
    const group = s.group(req.sectionGroupId);
    if (req.title !== undefined) group.title = req.title;
    if (req.icon) group.icon = req.icon.value;
  });
  return answer(deps, caller, after, s, req.sectionGroupId);
}

/**
 * Deletes a group; its sections return to the top level where it stood. `deleted` false: there was
 * no such group (the gateway answers 204). Edit role.
 */
export async function deleteSectionGroup(deps: SitesDeps, caller: Caller, req: structure.StructureItemRef): Promise<pb.DeleteResponse> {
  const { site } = await visibleSite(deps, caller, req.organizationId, req.siteId, 'edit');
  const { result } = await changeStructure(deps, site.organizationId, site._id, (s) => {
    if (!s.state.groups.some((g) => g._id === req.id)) return false;
    s.removeGroup(req.id);
    return true;
  });
  return { deleted: result };
}

/** Moves a section into the group, at its end (from the top level or another group). Edit role. */
export async function addSectionToGroup(deps: SitesDeps, caller: Caller, req: structure.GroupSectionRequest): Promise<pb.SiteSectionGroup> {
  const { site } = await visibleSite(deps, caller, req.organizationId, req.siteId, 'edit');
  const { structure: s, site: after } = await changeStructure(deps, site.organizationId, site._id, (s) => s.addSectionToGroup(req.sectionGroupId, req.sectionId));
  return answer(deps, caller, after, s, req.sectionGroupId);
}

/**
 * Takes a section out of the group, to the top level just after it. `deleted` false: the section
 * was not in the group (the gateway answers 204). Edit role.
 */
export async function removeSectionFromGroup(deps: SitesDeps, caller: Caller, req: structure.GroupSectionRequest): Promise<pb.DeleteResponse> {
  const { site } = await visibleSite(deps, caller, req.organizationId, req.siteId, 'edit');
  const { result } = await changeStructure(deps, site.organizationId, site._id, (s) => s.removeSectionFromGroup(req.sectionGroupId, req.sectionId));
  return { deleted: result };
}

/** Moves a group before or after another top-level item (the deprecated move; see sortStructure). Edit role. */
export async function moveSectionGroup(deps: SitesDeps, caller: Caller, req: structure.MoveItemRequest): Promise<pb.SiteSectionGroup> {
  const { site } = await visibleSite(deps, caller, req.organizationId, req.siteId, 'edit');
  const { structure: s, site: after } = await changeStructure(deps, site.organizationId, site._id, (s) =>
    s.move({ type: 'site-section-group', id: req.id }, positionOf(req.position)),
  );
  return answer(deps, caller, after, s, req.id);
}
