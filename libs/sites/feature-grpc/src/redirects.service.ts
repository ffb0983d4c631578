import { conflict, DomainError, invalid, notFound } from '@bindery/platform/errors';
import { Caller, internalCaller } from '@bindery/platform/grpc';
import { ClientSession, isDuplicateKey } from '@bindery/platform/mongo';
import { loadShownItems } from '@bindery/sites/data-access';
import { newId } from '@bindery/shared/ids';
import { type RevisionPage, walkPages } from '@bindery/shared/pages';
import { decodeCursor, Page, PageRequest, resolveLimit, toPage } from '@bindery/shared/pagination';
import {
  appendSuffix,
  assertRedirectSource,
  candidateSources,
  capturedSuffix,
  gitRedirectAsSiteRedirect,
  gitRedirectPlaces,
  matchGitRedirect,
  matchingRedirect,
  pageUrl,
  destinationOf,
  DestinationInput,
  REDIRECT_ORDERS,
  RedirectDestination,
  RedirectInputDestination,
  RedirectOrder,
  RedirectRecord,
  sectionUrl,
  SiteAddresses,
  siteSpaceUrl,
  SiteRecord,
  siteUrlOf,
  withAnchor,
} from '@bindery/sites/domain';
import { visibleSite } from './site-access';
import { siteEvents } from './site-events';
import { nowOf, SitesDeps } from './sites-deps';
import { organizationUrl } from './org-addresses';

/** Sites reads the pages of a redirect's target itself: the page is one its site publishes, whoever asks. */
const SITES = internalCaller('sites');

const SOURCE_TAKEN = 'A redirect from this source already exists on the site (live and draft redirects are apart).';

const isNotFound = (err: unknown) => err instanceof DomainError && err.kind === 'not_found';

/** Which redirect of which site. */
export interface RedirectRef {
  organizationId: string;
  siteId: string;
  redirectId: string;
}

/** A redirect as written: its source, destination and flags. */
export interface RedirectInput {
  source: string;
  destination: DestinationInput | undefined;
  captureWildcard: boolean;
  draft: boolean;
  permanent: boolean;
}

/** Records `sites.site.updated` ("redirects") on the site in the transaction of a redirect change (the reader's cache listens). */
async function touchSite(deps: SitesDeps, site: SiteRecord, at: string, session: ClientSession): Promise<void> {
  const touched = await deps.sites.touch(site.organizationId, site._id, at, [siteEvents.updated(site, ['redirects'])], session);
  if (!touched) throw notFound('Site');
}

/** A unique-source violation as the 409 it is. */
async function uniqueSource<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isDuplicateKey(err)) throw conflict(SOURCE_TAKEN);
    throw err;
  }
}

/** The sections and shown site spaces of a site (as loadShownItems reads them). */
export type ShownItems = Awaited<ReturnType<typeof loadShownItems>>;

/** The site's sections and shown site spaces, for resolving destinations and targets (read unless given). */
async function addressesOf(deps: SitesDeps, site: SiteRecord, shown?: ShownItems): Promise<SiteAddresses> {
  const { sections, siteSpaces } = shown ?? (await loadShownItems(deps, site));
  return {
    siteUrl: siteUrlOf(site, await organizationUrl(deps, site.organizationId)),
    defaultSectionId: site.defaultSectionId,
    defaultSiteSpaceId: site.defaultSiteSpaceId,
    sections: new Map(sections.map((s) => [s._id, { path: s.path, defaultSiteSpaceId: s.defaultSiteSpaceId }])),
    siteSpaces: new Map(siteSpaces.map((ss) => [ss._id, { path: ss.path, sectionId: ss.sectionId, spaceId: ss.spaceId }])),
  };
}

/** The pages of a space's revision (its current one unless given) as `reader` may read them (content's tree, flattened). */
/** A page of a space as redirects name it: its id and path. */
type PageNode = Pick<RevisionPage, 'id' | 'path'>;

export async function pagesOf(deps: SitesDeps, spaceId: string, reader: Caller, revisionId = ''): Promise<PageNode[]> {
  const reply = await deps.content.revisions.listPages({ spaceId, revisionId, metadata: false }, { caller: reader });
  return [...walkPages(reply.pages)].map(({ page }) => ({ id: page.id, path: page.path }));
}

/**
 * A requested destination as it is stored: what it names must be of this site (and a page readable
 * by the caller, who is setting the redirect); a page named by its space and path becomes the page
 * of the site's first shown site space of that space. 400 otherwise.
 */
async function storedDestination(deps: SitesDeps, caller: Caller, site: SiteRecord, d: RedirectInputDestination): Promise<RedirectDestination> {
  if (d.kind === 'external') return d;
  const a = await addressesOf(deps, site);
  const pageIn = async (spaceId: string, match: (p: PageNode) => boolean, what: string): Promise<string> => {
    try {
      const page = (await pagesOf(deps, spaceId, caller)).find(match);
      if (page) return page.id;
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    throw invalid(`destination.${what} names no page of that space that you can read.`);
  };
  switch (d.kind) {
    case 'site-section':
      if (!a.sections.has(d.siteSectionId)) throw invalid('destination.siteSectionId names no section of this site.');
      return d;
    case 'site-space':
      if (!a.siteSpaces.has(d.siteSpaceId)) throw invalid('destination.siteSpaceId names no site space of this site.');
      return d;
    case 'site-page': {
      const ss = a.siteSpaces.get(d.siteSpaceId);
      if (!ss) throw invalid('destination.siteSpaceId names no site space of this site.');
      await pageIn(ss.spaceId, (p) => p.id === d.pageId, 'pageId');
      return d;
    }
    case 'path': {
      const siteSpaceId = [...a.siteSpaces].find(([, ss]) => ss.spaceId === d.spaceId)?.[0];
      if (!siteSpaceId) throw invalid('destination.spaceId names no space of this site.');
      const wanted = d.path.replace(/^\/+|\/+$/g, '');
      return { kind: 'site-page', siteSpaceId, pageId: await pageIn(d.spaceId, (p) => p.path === wanted, 'path') };
    }
  }
}

/**
 * Where a destination leads now. A section or site space no longer in the site leads to the site's
 * home; a page no longer in its space, to its site space.
 */
async function destinationUrl(deps: SitesDeps, a: SiteAddresses, d: RedirectDestination): Promise<string> {
  switch (d.kind) {
    case 'external':
      return d.url;
    case 'site-section':
      return sectionUrl(a, d.siteSectionId) ?? a.siteUrl;
    case 'site-space':
      return siteSpaceUrl(a, d.siteSpaceId) ?? a.siteUrl;
    case 'site-page': {
      const base = siteSpaceUrl(a, d.siteSpaceId);
      const ss = a.siteSpaces.get(d.siteSpaceId);
      if (!base || !ss) return a.siteUrl;
      let page: PageNode | undefined;
      try {
        page = (await pagesOf(deps, ss.spaceId, SITES)).find((p) => p.id === d.pageId);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      return page?.path ? pageUrl(base, page.path) : base;
    }
  }
}

/** The site's redirects, live or draft, in the asked order (view action). */
export async function listRedirects(
  deps: SitesDeps,
  caller: Caller,
  organizationId: string,
  siteId: string,
  query: { orderBy?: string; draft?: boolean; search?: string; page?: PageRequest },
): Promise<Page<RedirectRecord>> {
  const { site } = await visibleSite(deps, caller, organizationId, siteId, 'view');
  const order = (query.orderBy || 'createdAt') as RedirectOrder;
  if (!REDIRECT_ORDERS.includes(order)) throw invalid(`orderBy must be one of ${REDIRECT_ORDERS.join(', ')}.`);
  const limit = resolveLimit(query.page?.limit);
  const q = { organizationId: site.organizationId, siteId: site._id, draft: query.draft ?? false, search: query.search || undefined };
  const [rows, count] = await Promise.all([deps.redirects.page(q, order, limit, decodeCursor(query.page?.page || undefined)), deps.redirects.count(q)]);
  return toPage(
    rows,
    limit,
    count,
    (r) => ({ k: r[order], id: r._id }),
    (r) => r,
  );
}

/**
 * Creates a redirect (edit action). Preconditions: a valid source, unique among the site's redirects
 * of the same draft flag (409), a destination of this site or an http(s) URL (400). Side effect:
 * `sites.site.updated` ("redirects").
 */
export async function createRedirect(deps: SitesDeps, caller: Caller, organizationId: string, siteId: string, req: RedirectInput): Promise<RedirectRecord> {
  const { site } = await visibleSite(deps, caller, organizationId, siteId, 'edit');
  assertRedirectSource(req.source);
  const destination = await storedDestination(deps, caller, site, destinationOf(req.destination, true));
  const now = nowOf(deps);
  const record: RedirectRecord = {
    _id: newId(),
    organizationId: site.organizationId,
    siteId: site._id,
    source: req.source,
    destination,
    captureWildcard: req.captureWildcard,
    draft: req.draft,
    permanent: req.permanent,
    createdAt: now,
    updatedAt: now,
  };
  await uniqueSource(() =>
    deps.transaction(async (session) => {
      await deps.redirects.insert(record, session);
      await touchSite(deps, site, now, session);
    }),
  );
  return record;
}

/**
 * Changes a redirect (edit action): its source (unique as on create, 409), destination, flags;
 * `draft: false` promotes a draft (409 when a live redirect has its source). Side effect:
 * `sites.site.updated` ("redirects").
 */
export async function updateRedirect(deps: SitesDeps, caller: Caller, ref: RedirectRef, req: Partial<RedirectInput>): Promise<RedirectRecord> {
  const { site } = await visibleSite(deps, caller, ref.organizationId, ref.siteId, 'edit');
  const set: Partial<RedirectRecord> = { updatedAt: nowOf(deps) };
  if (req.source !== undefined) {
    assertRedirectSource(req.source);
    set.source = req.source;
  }
  if (req.destination !== undefined) set.destination = await storedDestination(deps, caller, site, destinationOf(req.destination, false));
  if (req.captureWildcard !== undefined) set.captureWildcard = req.captureWildcard;
  if (req.draft !== undefined) set.draft = req.draft;
  if (req.permanent !== undefined) set.permanent = req.permanent;
  const updated = await uniqueSource(() =>
    deps.transaction(async (session) => {
      const r = await deps.redirects.update(site.organizationId, site._id, ref.redirectId, set, session);
      if (!r) throw notFound('Site redirect');
      await touchSite(deps, site, set.updatedAt!, session);
      return r;
    }),
  );
  return updated;
}

/** Deletes a redirect for good (edit action); `deleted` is false when there was none. Side effect: `sites.site.updated` ("redirects"). */
export async function deleteRedirect(deps: SitesDeps, caller: Caller, ref: RedirectRef): Promise<boolean> {
  const { site } = await visibleSite(deps, caller, ref.organizationId, ref.siteId, 'edit');
  const now = nowOf(deps);
  const deleted = await deps.transaction(async (session) => {
    if (!(await deps.redirects.remove(site.organizationId, site._id, ref.redirectId, session))) return false;
    await touchSite(deps, site, now, session);
    return true;
  });
  return deleted;
}

/**
 * The site a redirect lookup reads: one the caller may view (a site token: its own site), or, for
 * anyone authenticated holding an active share key of it, a published share-link site. 404 otherwise.
 */
async function lookupSite(deps: SitesDeps, caller: Caller, organizationId: string, siteId: string, shareKey: string | undefined): Promise<SiteRecord> {
  try {
    return (await visibleSite(deps, caller, organizationId, siteId, 'view')).site;
  } catch (err) {
    if (!isNotFound(err) || !shareKey || caller.site) throw err;
  }
  const site = await deps.sites.get(organizationId, siteId);
  if (!site?.published || site.visibility !== 'share-link' || !(await deps.shareLinks.activeShareLinkByKey(site._id, shareKey))) throw notFound('Site');
  return site;
}

/** The Git redirect (git-redirects.ts in the domain) of a path below the site, in the site's shape, and where it leads now. */
async function gitRedirectOf(deps: SitesDeps, site: SiteRecord, a: SiteAddresses, source: string): Promise<{ redirect: RedirectRecord; target: string } | undefined> {
  const places = gitRedirectPlaces(a, source);
  if (!places.length) return undefined;
  const records = await deps.gitRedirects.withSources(site.organizationId, [...new Set(places.map((p) => p.spaceId))], [...new Set(places.map((p) => p.rest))]);
  const match = matchGitRedirect(places, records);
  if (!match) return undefined;
  const redirect = gitRedirectAsSiteRedirect(site, source, match);
  return { redirect, target: withAnchor(await destinationUrl(deps, a, redirect.destination), match.entry.anchor) };
}

/**
 * The live redirect a path of the site goes through and where it leads now; undefined when none
 * matches. In order: the site's own redirect with exactly that source, then a Git redirect of a space
 * the site shows (gitRedirectOf), then the site's wildcard with the longest prefix of it (its match
 * appended when it captures it). `source` must be a valid source; `shown`: the site's shown items
 * when the caller has them. Reads only.
 */
export async function liveRedirectOf(deps: SitesDeps, site: SiteRecord, source: string, shown?: ShownItems): Promise<{ redirect: RedirectRecord; target: string } | undefined> {
  const candidates = await deps.redirects.liveWithSources(site.organizationId, site._id, candidateSources(source));
  const exact = candidates.find((r) => r.source === source);
  const a = await addressesOf(deps, site, shown);
  if (!exact) {
    const git = await gitRedirectOf(deps, site, a, source);
    if (git) return git;
  }
  const redirect = exact ?? matchingRedirect(source, candidates);
  if (!redirect) return undefined;
  const target = await destinationUrl(deps, a, redirect.destination);
  return { redirect, target: redirect.captureWildcard ? appendSuffix(target, capturedSuffix(redirect.source, source), redirect.source) : target };
}

/** getSiteRedirectBySource: the live redirect of the source and its target now (liveRedirectOf); 404 when none matches. */
export async function getRedirectBySource(
  deps: SitesDeps,
  caller: Caller,
  organizationId: string,
  siteId: string,
  source: string,
  shareKey?: string,
): Promise<{ redirect: RedirectRecord; target: string }> {
  const site = await lookupSite(deps, caller, organizationId, siteId, shareKey);
  assertRedirectSource(source);
  const found = await liveRedirectOf(deps, site, source);
  if (!found) throw notFound('Site redirect');
  return found;
}
