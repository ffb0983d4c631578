import { conflict, DomainError, invalid, notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { newId } from '@bindery/shared/ids';
import { contentV1, sitesStructureV1 as structure, sitesV1 as pb } from '@bindery/shared/contracts';
import { checkPath, siteSpacePath, SiteRecord, SiteStructure, uniquePath } from '@bindery/sites/domain';
import { visibleSite } from './site-access';
import { nowOf, SitesDeps } from './sites-deps';
import { changeStructure } from './structure-change';
import { siteSpaceMessage, structureReader, spacesFor } from './structure-reads';
import { conditionChange, pageBy, positionOf, spaceToAdd } from './structure-view';
import { organizationUrl } from './org-addresses';

const PATH_TAKEN = 'Another site space of the same section already has this path.';

/**
 * A page of the site's shown site spaces (by their order in their section, then id) that the
 * reader can read; `default` true: only the default site spaces (of each section, or of the root),
 * false: only the others. Members who may view the site, or anyone with an active share key of the
 * published share-link site.
 */
export async function listSiteSpaces(deps: SitesDeps, caller: Caller, req: structure.ListSiteSpacesRequest): Promise<structure.ListSiteSpacesResponse> {
  const reader = await structureReader(deps, caller, req.organizationId, req.siteId, req.shareKey);
  const { site } = reader;
  const sections = await deps.sections.ofSite(site.organizationId, site._id);
  const defaults = [site.defaultSiteSpaceId, ...sections.map((s) => s.defaultSiteSpaceId)].filter((x): x is string => !!x);
  const q = { organizationId: site.organizationId, siteId: site._id, ids: req.default === undefined ? undefined : req.default ? { in: defaults } : { notIn: defaults } };
  return pageBy(
    req.page,
    (limit, after) => deps.siteSpaces.page(q, limit, after),
    () => deps.siteSpaces.count(q),
    async (siteSpaces) => {
      const spaces = await spacesFor(
        deps,
        reader,
        siteSpaces.map((ss) => ss.spaceId),
      );
      const ctx = { site, sections: new Map(sections.map((s) => [s._id, s])), spaces, orgUrl: await organizationUrl(deps, site.organizationId) };
      return siteSpaces.flatMap((ss) => siteSpaceMessage(ctx, ss) ?? []);
    },
  );
}

/** The site space as its caller sees it after a change (its space read as given, or read now). */
async function answer(deps: SitesDeps, caller: Caller, site: SiteRecord, s: SiteStructure, id: string, space?: contentV1.Space): Promise<pb.SiteSpace> {
  const ss = s.siteSpace(id);
  const spaces = space && space.id === ss.spaceId ? new Map([[space.id, space]]) : await spacesFor(deps, { spacesAs: caller, published: false }, [ss.spaceId]);
  const message = siteSpaceMessage({ site, sections: new Map(s.state.sections.map((x) => [x._id, x])), spaces, orgUrl: await organizationUrl(deps, site.organizationId) }, ss);
  if (!message) throw notFound('Site space');
  return message;
}

/**
 * Before changing a site space, that it is one the caller may see: shown, with a space they can
 * read (a site never answers a site space whose space its reader cannot reach); 404 otherwise.
 */
export async function readableSiteSpace(deps: SitesDeps, caller: Caller, site: SiteRecord, id: string): Promise<void> {
  const ss = await deps.siteSpaces.get(site.organizationId, site._id, id);
  if (!ss || ss.spaceDeletedAt) throw notFound('Site space');
  try {
    await deps.content.spaces.getSpace({ spaceId: ss.spaceId }, { caller });
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'not_found') throw notFound('Site space');
    throw err;
  }
}

/**
 * Adds a site space of the space (one the caller can read, of the site's organization) at the end
 * of a section: the one given, else the default section, else (a site without sections) the root.
 * Its path comes from the space's title, unique among the site spaces of that section. The first
 * site space of a section (or of the root) becomes its default. Edit role.
 */
export async function addSiteSpace(deps: SitesDeps, caller: Caller, req: structure.AddSiteSpaceRequest): Promise<pb.SiteSpace> {
  const { site } = await visibleSite(deps, caller, req.organizationId, req.siteId, 'edit');
  const space = await spaceToAdd(deps, caller, site, req.spaceId);
  const now = nowOf(deps);
  const id = newId();
  const { structure: s, site: after } = await changeStructure(deps, site.organizationId, site._id, (s, current) => {
    let sectionId: string | undefined;
    if (req.sectionId !== undefined) {
      if (!s.findSection(req.sectionId)) throw invalid('sectionId names no section of this site.');
      sectionId = req.sectionId;
    } else if (s.hasSections()) {
      sectionId = current.defaultSectionId ?? s.sectionsInOrder()[0]._id;
    }
    const taken = new Set(s.siteSpacesOf(sectionId, { includeHidden: true }).map((x) => x.path));
    s.addSiteSpace(
      {
        _id: id,
        organizationId: site.organizationId,
        siteId: site._id,
        spaceId: space.id,
        path: uniquePath(siteSpacePath(space.title), taken),
        createdAt: now,
        updatedAt: now,
      },
      sectionId,
    );
  });
  return answer(deps, caller, after, s, id, space);
}

/**
 * Changes a site space: its path (unique among the site spaces of its section: 409), condition
 * (validated; null removes it), or the space it shows (one the caller can read, of the site's
 * organization). Edit role.
 */
export async function updateSiteSpace(deps: SitesDeps, caller: Caller, req: structure.UpdateSiteSpaceRequest): Promise<pb.SiteSpace> {
  const { site } = await visibleSite(deps, caller, req.organizationId, req.siteId, 'edit');
  if (req.path !== undefined) checkPath(req.path, 'path');
  const condition = conditionChange(req.condition);
  await readableSiteSpace(deps, caller, site, req.siteSpaceId);
  const space = req.spaceId !== undefined ? await spaceToAdd(deps, caller, site, req.spaceId) : undefined;
  const { structure: s, site: after } = await changeStructure(
    deps,
    site.organizationId,
    site._id,
    (s) => {
      const ss = s.siteSpace(req.siteSpaceId);
      if (req.path !== undefined && req.path !== ss.path) {
        if (s.siteSpacesOf(ss.sectionId, { includeHidden: true }).some((x) => x.path === req.path)) throw conflict(PATH_TAKEN);
        ss.path = req.path;
      }
      if (condition) ss.condition = condition.value;
      if (space) ss.spaceId = space.id;
    },
    { pathTaken: PATH_TAKEN },
  );
  return answer(deps, caller, after, s, req.siteSpaceId, space);
}

/**
 * Deletes a site space (also one hidden while its space is deleted); the default of its section
 * moves to the first one left. `deleted` false: there was no such site space (204). Edit role.
 */
export async function deleteSiteSpace(deps: SitesDeps, caller: Caller, req: structure.StructureItemRef): Promise<pb.DeleteResponse> {
  const { site } = await visibleSite(deps, caller, req.organizationId, req.siteId, 'edit');
  const { result } = await changeStructure(deps, site.organizationId, site._id, (s) => s.removeSiteSpace(req.id));
  return { deleted: result };
}

/** Moves a site space before or after another of its section (the deprecated move; see sortStructure). Edit role. */
export async function moveSiteSpace(deps: SitesDeps, caller: Caller, req: structure.MoveItemRequest): Promise<pb.SiteSpace> {
  const { site } = await visibleSite(deps, caller, req.organizationId, req.siteId, 'edit');
  await readableSiteSpace(deps, caller, site, req.id);
  const { structure: s, site: after } = await changeStructure(deps, site.organizationId, site._id, (s) => s.move({ type: 'site-space', id: req.id }, positionOf(req.position)));
  return answer(deps, caller, after, s, req.id);
}
