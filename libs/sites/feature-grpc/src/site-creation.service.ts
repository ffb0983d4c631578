import { conflict, invalid, isDomainError } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { sitesV1 as pb } from '@bindery/shared/contracts';
import { newId } from '@bindery/shared/ids';
import { duplicateKeyOn } from '@bindery/sites/data-access';
import {
  assertSiteAction,
  basenameOf,
  checkSiteTitle,
  checkSiteType,
  checkVisibility,
  DEFAULT_SITE_TITLE,
  pathCandidate,
  RESERVED_BASENAMES,
  SiteRecord,
  SiteSpaceRecord,
  uniqueSiteSpacePaths,
} from '@bindery/sites/domain';
import { orgSitePermissions } from './site-access';
import { siteEvents } from './site-events';
import { siteMessage } from './site-messages';
import { nowOf, SitesDeps } from './sites-deps';
import { organizationUrl } from './org-addresses';

/** The most spaces a site is created with at once (more are added as site spaces afterwards). */
export const MAX_INITIAL_SPACES = 50;
/** Inserts tried with successive basenames before the create gives up (only under heavy contention). */
const BASENAME_ATTEMPTS = 100;

const NEW_SPACE_KINDS = ['sample', 'empty'];
const SAMPLE_PAGE = {
  operation: 'insert_page',
  title: 'Welcome',
  document: { markdown: '# Welcome\n\nThis space was created with its site. Edit this page, or add pages next to it, and publish the site to show them.\n' },
};

interface SpaceForSite {
  id: string;
  title: string;
}

/** The spaces named, each read as the caller (content decides what they may see) and of this organization; a 400 otherwise. */
async function readableSpaces(deps: SitesDeps, caller: Caller, organizationId: string, spaceIds: string[]): Promise<SpaceForSite[]> {
  if (new Set(spaceIds).size !== spaceIds.length) throw invalid('spaces names a space more than once.');
  if (spaceIds.length > MAX_INITIAL_SPACES) throw invalid(`A site is created with at most ${MAX_INITIAL_SPACES} spaces.`);
  const unreadable = (id: string) => invalid(`spaces: "${id}" is not a space of this organization that you can read.`);
  return Promise.all(
    spaceIds.map(async (spaceId) => {
      let space;
      try {
        space = await deps.content.spaces.getSpace({ spaceId }, { caller });
      } catch (err) {
        if (isDomainError(err) && (err.kind === 'not_found' || err.kind === 'forbidden')) throw unreadable(spaceId);
        throw err;
      }
      if (space.organization !== organizationId || space.deletedAt) throw unreadable(spaceId);
      return { id: space.id, title: space.title };
    }),
  );
}

/** A new space of the organization for the site, created as the caller ("sample": with a first page). */
async function newSpaceFor(deps: SitesDeps, caller: Caller, organizationId: string, kind: string, siteTitle: string): Promise<SpaceForSite> {
  if (!NEW_SPACE_KINDS.includes(kind)) throw invalid('spaces must be a list of space ids, "sample" or "empty".');
  const title = [...siteTitle].slice(0, 50).join('').trim() || DEFAULT_SITE_TITLE;
  const space = await deps.content.spaces.createSpace({ organizationId, title }, { caller });
  if (kind === 'sample') {
    await deps.content.revisions.applyChanges(
      {
        spaceId: space.id,
        baseRevisionId: space.revision,
        changesJson: JSON.stringify([SAMPLE_PAGE]),
        updateCurrent: true,
        revisionType: 'edits',
        mergedFrom: '',
        revertRevisionId: '',
      },
      { caller },
    );
  }
  return { id: space.id, title: space.title };
}

/**
 * Inserts the site with its site spaces under the first free basename derived from its title
 * (`docs`, `docs-2`, …) in its organization. The unique index on (organization, basename) decides: an insert that loses the name to
 * another site runs again with the next one. The names already taken are only a hint where to start.
 */
async function insertUnderFreeBasename(deps: SitesDeps, site: Omit<SiteRecord, 'basename'>, siteSpaces: SiteSpaceRecord[]): Promise<SiteRecord> {
  const base = basenameOf(site.title);
  const taken = new Set([...(await deps.sites.basenamesLike(site.organizationId, base)), ...RESERVED_BASENAMES]);
  let n = 1;
  for (let attempt = 1; attempt <= BASENAME_ATTEMPTS; attempt++) {
    while (taken.has(pathCandidate(base, n))) n++;
    const record: SiteRecord = { ...site, basename: pathCandidate(base, n) };
    try {
      await deps.transaction(async (session) => {
        await deps.sites.insert(record, [siteEvents.created(record)], session);
        await deps.dependents.insertSiteSpaces(siteSpaces, session);
      });
      return record;
    } catch (err) {
      if (!duplicateKeyOn(err, 'basename')) throw err;
      taken.add(record.basename);
    }
  }
  throw conflict('Other sites kept taking the basename this site was to have; try again.');
}

/**
 * Creates a site (callers with the publish action: create role and up), unpublished, with a unique
 * basename from its title. `spaceIds` become its site spaces at the root, in order, the first the
 * default, each with a path from its space's title; `newSpace` ("sample" or "empty") creates a space
 * for it through content, as the caller, instead. Side effects: the site and its site spaces in one
 * transaction, with `sites.site.created`.
 */
export async function createSite(deps: SitesDeps, caller: Caller, req: pb.CreateSiteRequest): Promise<pb.Site> {
  const permissions = await orgSitePermissions(deps, caller, req.organizationId);
  assertSiteAction(permissions, 'publish');
  const organizationId = req.organizationId;
  const title = req.title !== undefined ? checkSiteTitle(req.title) : DEFAULT_SITE_TITLE;
  const type = req.type !== undefined ? checkSiteType(req.type) : 'basic';
  const visibility = req.visibility !== undefined ? checkVisibility(req.visibility) : 'public';
  if (req.newSpace !== undefined && req.spaceIds.length) throw invalid('spaces is either a list of space ids or one of "sample", "empty".');
  const spaces =
    req.newSpace !== undefined ? [await newSpaceFor(deps, caller, organizationId, req.newSpace, title)] : await readableSpaces(deps, caller, organizationId, req.spaceIds);

  const now = nowOf(deps);
  const siteId = newId();
  const paths = uniqueSiteSpacePaths(spaces.map((s) => s.title));
  const siteSpaces: SiteSpaceRecord[] = spaces.map((s, order) => ({
    _id: newId(),
    organizationId,
    siteId,
    spaceId: s.id,
    path: paths[order],
    order,
    createdAt: now,
    updatedAt: now,
  }));
  const site = await insertUnderFreeBasename(
    deps,
    {
      _id: siteId,
      organizationId,
      type,
      title,
      visibility,
      published: false,
      agentsContext: 'included',
      ...(siteSpaces.length ? { defaultSiteSpaceId: siteSpaces[0]._id } : {}),
      siteSpaces: siteSpaces.length,
      createdAt: now,
      updatedAt: now,
      structureVersion: 0,
    },
    siteSpaces,
  );
  return siteMessage(await organizationUrl(deps, site.organizationId), site, permissions, spaces[0]?.id);
}
