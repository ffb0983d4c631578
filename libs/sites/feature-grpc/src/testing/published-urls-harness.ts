import { randomBytes } from 'node:crypto';
import type { ContentClients } from '@bindery/content/client';
import { IdentityEvents as I } from '@bindery/identity/client';
import { identityStandIn } from '@bindery/identity/projection';
import { notFound } from '@bindery/platform/errors';
import { Caller, isInternalCaller } from '@bindery/platform/grpc';
import { connectSites } from '@bindery/sites/client';
import { COLLECTIONS } from '@bindery/sites/data-access';
import type { SectionRecord, SiteRecord, SiteSpaceRecord } from '@bindery/sites/domain';
import { contentRevisionsV1 } from '@bindery/shared/contracts';
import { sitesServiceWith } from '../sites-server';
import type { SitesDeps } from '../sites-deps';
import { basicSiteRecord } from './site-records';
import type { StartService } from './sites-harness';

export const id = (prefix: string) => `${prefix}${randomBytes(5).toString('hex')}`;
export const org = id('org');
export const T0 = Date.parse('2026-03-01T00:00:00.000Z');
export const READER = 'http://reader.test:8090';

export type Answer = Awaited<ReturnType<ReturnType<typeof connectSites>['published']['resolvePublishedUrl']>>;

/**
 * The published-URL resolver in process on the real MongoDB, for the tests of a describe block: sites'
 * gRPC service, content's spaces (current revision, page paths) held in memory, sites and their
 * structure written as records; `start` is shared/testing's startServiceUnderTest (which only spec
 * files import). Registers the block's hooks; `deps` and `clients` are set before its
 * tests run, `now` is the service's clock (T0 before each test).
 */
export function publishedUrlsHarness(start: StartService) {
  let service: Awaited<ReturnType<StartService>> | undefined;
  /** content's spaces: organization, current revision, page paths, deleted or not */
  const spaces = new Map<string, { organization: string; revision: string; paths: string[]; deletedAt?: string }>();
  const content = {
    spaces: {
      getSpace: async (req: { spaceId: string }, o?: { caller?: Caller }) => {
        const s = spaces.get(req.spaceId);
        if (!s || !o?.caller || !isInternalCaller(o.caller.userId)) throw notFound('Space');
        return { id: req.spaceId, title: req.spaceId, organization: s.organization, revision: s.revision, deletedAt: s.deletedAt };
      },
    },
    revisions: {
      listPages: async (req: { spaceId: string; revisionId: string }, o?: { caller?: Caller }) => {
        const s = spaces.get(req.spaceId);
        if (!s || !o?.caller || !isInternalCaller(o.caller.userId) || (req.revisionId && req.revisionId !== s.revision)) throw notFound('Space');
        return { revisionId: s.revision, pages: s.paths.map((path, i) => contentRevisionsV1.RevisionPage.fromPartial({ id: `page${i}`, path })) };
      },
    },
    close: () => undefined,
  } as unknown as ContentClients & { close(): void };

  const renderer: Caller = { userId: 'renderer', isInstanceAdmin: false };
  const resolve = (url: string, visitor?: { token?: string; unsignedClaims?: Record<string, unknown> }, caller: Caller = renderer): Promise<Answer> =>
    h.clients.published.resolvePublishedUrl({ url, visitor: visitor && { unsignedClaims: undefined, ...visitor }, redirectOnError: false }, { caller });
  /** The answer, or how it was refused. */
  const outcome = (url: string, visitor?: { token?: string; unsignedClaims?: Record<string, unknown> }, caller?: Caller) =>
    resolve(url, visitor, caller).then(
      (a): Answer | string => a,
      (err: { kind: string }) => err.kind,
    );
  const where = (a: Answer | string) => (typeof a === 'string' ? a : { siteSpaceId: a.siteSpaceId, pathname: a.pathname, ...(a.redirect ? { redirect: a.redirect } : {}) });
  const scopeOf = async (a: Answer | string): Promise<string[]> => {
    if (typeof a === 'string') throw new Error(`refused: ${a}`);
    return (await h.clients.published.authenticateSiteToken({ token: a.apiToken })).spaceIds;
  };

  beforeAll(async () => {
    service = await start(sitesServiceWith({ clock: () => h.now, accessSource: identityStandIn, connectContent: () => content }), { BINDERY_READER_URL: READER });
    h.clients = connectSites(service.address, 5000);
    h.deps = service.running.deps;
  });
  afterAll(async () => {
    h.clients?.close();
    await service?.stop();
  });
  beforeEach(() => {
    h.now = T0;
  });

  function space(paths: string[] = ['intro', 'guides/install'], organization = org): string {
    const spaceId = id('space');
    spaces.set(spaceId, { organization, revision: id('rev'), paths });
    return spaceId;
  }

  /** A site as its repository stores it; root site spaces of these spaces (the first the default) unless sections are given. */
  async function site(
    fields: Partial<SiteRecord> = {},
    structure: { sections?: Array<Partial<SectionRecord> & { siteSpaces: Array<Partial<SiteSpaceRecord>> }>; rootSpaces?: Array<Partial<SiteSpaceRecord>> } = {},
  ) {
    const siteId = id('site');
    const at = new Date(h.now).toISOString();
    const common = { organizationId: org, siteId, createdAt: at, updatedAt: at };
    const sections: SectionRecord[] = (structure.sections ?? []).map(({ siteSpaces: _, ...s }, order) => ({
      ...common,
      _id: id('sec'),
      title: `S${order}`,
      path: `s${order}`,
      order,
      ...s,
    }));
    const siteSpaces: SiteSpaceRecord[] = [
      ...(structure.rootSpaces ?? []).map((ss, order) => ({ ...common, _id: id('ss'), spaceId: space(), path: `v${order}`, order, ...ss })),
      ...(structure.sections ?? []).flatMap((section, i) =>
        section.siteSpaces.map((ss, order) => ({ ...common, _id: id('ss'), sectionId: sections[i]._id, spaceId: space(), path: `v${order}`, order, ...ss })),
      ),
    ];
    sections.forEach((s) => (s.defaultSiteSpaceId ??= siteSpaces.find((ss) => ss.sectionId === s._id)?._id));
    const record = basicSiteRecord(org, siteId, at, {
      siteSpaces: siteSpaces.length,
      defaultSectionId: sections[0]?._id,
      defaultSiteSpaceId: sections.length ? undefined : siteSpaces[0]?._id,
      ...fields,
    });
    await h.deps.sites.insert(record, []);
    if (sections.length) await h.deps.db.collection(COLLECTIONS.sections).insertMany(sections as never[]);
    if (siteSpaces.length) await h.deps.db.collection(COLLECTIONS.siteSpaces).insertMany(siteSpaces as never[]);
    return { site: record, sections, siteSpaces, url: `${READER}/${record.organizationId}/${record.basename}` };
  }

  async function shareLink(siteId: string, active = true): Promise<{ id: string; key: string }> {
    const link = { _id: id('link'), organizationId: org, siteId, name: 'Preview', active, key: `bshare_${randomBytes(16).toString('hex')}`, createdAt: 'T', updatedAt: 'T' };
    await h.deps.db.collection(COLLECTIONS.shareLinks).insertOne(link as never);
    return { id: link._id, key: link.key };
  }

  async function member(role: 'admin' | 'edit'): Promise<Caller> {
    const userId = id(`u-${role}-`);
    await h.deps.access.handlers[I.memberAdded.type](I.memberAdded.create('tests', userId, { organizationId: org, userId, role }, org));
    return { userId, isInstanceAdmin: false };
  }

  const h = {
    now: T0,
    deps: undefined as unknown as SitesDeps,
    clients: undefined as unknown as ReturnType<typeof connectSites>,
    spaces,
    renderer,
    resolve,
    outcome,
    where,
    scopeOf,
    space,
    site,
    shareLink,
    member,
  };
  return h;
}
