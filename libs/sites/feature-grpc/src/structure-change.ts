import { conflict, notFound } from '@bindery/platform/errors';
import { ClientSession, isDuplicateKey, oneAtATime, StaleRead } from '@bindery/platform/mongo';
import { loadStructure } from '@bindery/sites/data-access';
import { SiteRecord, SiteStructure, structureChanges } from '@bindery/sites/domain';
import { SitesEvents } from '@bindery/sites/client';
import { nowOf, SitesDeps, SOURCE } from './sites-deps';

/** How many times a change whose derived path another item took meanwhile is tried again. */
const PATH_ATTEMPTS = 5;

export interface StructureChangeOptions {
  /** the message of the 409 when a path the caller chose is taken (the unique index said so) */
  pathTaken?: string;
  /** the change's own transaction: an event consumer's (its writes commit with the event's marker) */
  session?: ClientSession;
}

export interface StructureChangeResult<R> {
  result: R;
  site: SiteRecord;
  structure: SiteStructure;
  /** false when the change changed nothing (no write, no new structure version) */
  changed: boolean;
}

/**
 * The one way a site's structure changes. In one transaction: read the site (its structure version)
 * and its whole structure, let `work` change it (SiteStructure keeps orders dense and defaults
 * right), write back the records that differ, and move the site's structure version from the one
 * read to the next by compare-and-set, with the site's defaults, its count of shown site spaces and
 * a `sites.site.updated` event. Two changes computed from the same state cannot both apply: the
 * second finds the version moved (or collides on the site's document) and runs again from the
 * start on the new state.
 *
 * A path the work derived (from a title) that the unique index finds taken runs the whole change
 * again (it sees the new paths then); a path the caller chose is a 409.
 *
 * Changes of one site queue in this process (oneAtATime): correctness rests on the compare-and-set,
 * but transactions that all write the site's document abort each other, and under load a burst of
 * them could run out of attempts; queued, only other replicas' changes conflict.
 */
export async function changeStructure<R>(
  deps: SitesDeps,
  organizationId: string,
  siteId: string,
  work: (structure: SiteStructure, site: SiteRecord) => R,
  options: StructureChangeOptions = {},
): Promise<StructureChangeResult<R>> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      if (options.session) return await changeIn(deps, organizationId, siteId, work, options.session);
      const run = () => deps.transaction((session) => changeIn(deps, organizationId, siteId, work, session));
      return await (deps.queueStructureChanges ? oneAtATime(`sites.structure:${siteId}`, run) : run());
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      if (options.pathTaken) throw conflict(options.pathTaken);
      if (attempt >= PATH_ATTEMPTS || options.session) throw conflict('The site structure was changed by another request at the same time; try again.');
    }
  }
}

async function changeIn<R>(
  deps: SitesDeps,
  organizationId: string,
  siteId: string,
  work: (structure: SiteStructure, site: SiteRecord) => R,
  session: ClientSession,
): Promise<StructureChangeResult<R>> {
  const site = await deps.sites.get(organizationId, siteId, session);
  if (!site) throw notFound('Site');
  const before = await loadStructure(deps, site, session);
  const structure = new SiteStructure(before);
  const result = work(structure, site);
  const after = structure.state;
  const changes = structureChanges(before, after);
  const siteSpaces = structure.liveCount();
  const same =
    ![changes.sections, changes.groups, changes.siteSpaces].some((c) => c.inserted.length || c.updated.length || c.removed.length) &&
    after.defaultSectionId === site.defaultSectionId &&
    after.defaultSiteSpaceId === site.defaultSiteSpaceId &&
    siteSpaces === site.siteSpaces;
  if (same) return { result, site, structure, changed: false };
  const now = nowOf(deps);
  await deps.sections.apply(organizationId, siteId, changes.sections, now, session);
  await deps.sectionGroups.apply(organizationId, siteId, changes.groups, now, session);
  await deps.siteSpaces.apply(organizationId, siteId, changes.siteSpaces, now, session);
  const summary = { siteSpaces, defaultSectionId: after.defaultSectionId, defaultSiteSpaceId: after.defaultSiteSpaceId, updatedAt: now };
  const event = SitesEvents.siteUpdated.create(SOURCE, siteId, { organizationId, siteId, changes: ['structure'] }, organizationId);
  if (!(await deps.sites.bumpStructure(organizationId, siteId, site.structureVersion, summary, [event], session))) throw new StaleRead('The site structure');
  const updated: SiteRecord = { ...site, siteSpaces, updatedAt: now, structureVersion: site.structureVersion + 1 };
  if (after.defaultSectionId) updated.defaultSectionId = after.defaultSectionId;
  else delete updated.defaultSectionId;
  if (after.defaultSiteSpaceId) updated.defaultSiteSpaceId = after.defaultSiteSpaceId;
  else delete updated.defaultSiteSpaceId;
  return { result, site: updated, structure, changed: true };
}
