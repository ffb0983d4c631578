import { assertMatchesSpec, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { contentItem, createSpace, unknownId } from './content-fixtures';
import { openChangeRequest } from './change-request-fixtures';
import { createOrganization, organizationWithEveryRole } from './fixtures';
import { http } from './http-client';
import { CALLERS, callerClients, Caller, Client, matrixMismatches, MatrixRow } from './matrix';
import { seedReusableContents, SeededReusableContents } from './reusable-content-fixtures';
import { createPublishedSite, siteToken } from './site-fixtures';

type Who = Caller | 'siteToken' | 'otherSiteToken' | 'otherOrgSiteToken';
const WHO: Who[] = [...CALLERS, 'siteToken', 'otherSiteToken', 'otherOrgSiteToken'];

interface Ctx {
  spaceId: string;
  changeRequestId: string;
  seeded: SeededReusableContents;
  /** 404s that differ from the same call about a space id that names nothing */
  shapes: string[];
}

type Path = (spaceId: string, x: Ctx) => string;
const R = (id: string, x: Ctx) => `/v1/spaces/${id}/revisions/${x.seeded.revisionId}`;

// Reading of the expectations. Readers of the space read a page's document and meta links: every
// member with a role (the space inherits the organization's roles); a guest without a grant and
// another organization's admin get the 404 of a space that does not exist; a bad token or none,
// 401. A site token of a published site holding the space reads them like a reader, the revision by id
// included (GitBook's renderer asks it with metadata=true); a site token of another site of the
// organization, not holding the space, or of another organization's site sees no such space (404). A change request's content is for members
// only: a site token is refused before any service is asked (403).
//                                               admin create review edit comment read guest stranger bad none site otherSite otherOrgSite
const ROWS: Array<{ name: string; path: Path; spec: string; expect: number[] }> = [
  {
    name: 'GET revisions/{revisionId}?metadata=true (getRevisionById)',
    path: (id, x) => `${R(id, x)}?metadata=true`,
    spec: '/spaces/{spaceId}/revisions/{revisionId}',
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401, 200, 404, 404],
  },
  {
    name: 'GET revisions/{revisionId}/page/{pageId}/document?evaluated&dereferenced (getPageDocumentInRevisionById)',
    path: (id, x) => `${R(id, x)}/page/${x.seeded.pageId}/document?evaluated=deterministic-only&dereferenced=reusable-contents`,
    spec: '/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/document',
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401, 200, 404, 404],
  },
  {
    name: 'GET content/page/{pageId}/meta-links (listSpacePageMetaLinks)',
    path: (id, x) => `/v1/spaces/${id}/content/page/${x.seeded.pageId}/meta-links`,
    spec: '/spaces/{spaceId}/content/page/{pageId}/meta-links',
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401, 200, 404, 404],
  },
  {
    name: 'GET revisions/{revisionId}/page/{pageId}/meta-links (listRevisionPageMetaLinks)',
    path: (id, x) => `${R(id, x)}/page/${x.seeded.pageId}/meta-links`,
    spec: '/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/meta-links',
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401, 200, 404, 404],
  },
  {
    name: 'GET change-requests/{changeRequestId}/content/page/{pageId}/meta-links (listChangeRequestPageMetaLinks)',
    path: (id, x) => `/v1/spaces/${id}/change-requests/${x.changeRequestId}/content/page/${x.seeded.pageId}/meta-links`,
    spec: '/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/meta-links',
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401, 403, 403, 403],
  },
];

/** Successes are checked against 0.202.0; whenever a caller gets a 404, the same call about a space that does not exist answers the same. */
const rows: Array<MatrixRow<Ctx, Who>> = ROWS.map((row) => ({
  name: row.name,
  expect: row.expect,
  async call(c: Client, x: Ctx, who: Who) {
    const res = await c.get(row.path(x.spaceId, x));
    if (res.status === 200) assertMatchesSpec('0.202.0', 'get', row.spec, 200, res.body);
    if (res.status === 404) {
      const ghostId = unknownId();
      const ghost = await c.get(row.path(ghostId, x));
      const seen = JSON.stringify(res.body).split(x.spaceId).join('<id>');
      const unknown = JSON.stringify(ghost.body).split(ghostId).join('<id>');
      if (ghost.status !== res.status || seen !== unknown) x.shapes.push(`${row.name} as ${who}: ${res.status} ${seen}, for an unknown space ${ghost.status} ${unknown}`);
    }
    return res;
  },
}));

describe("authorization matrix: GitBook renderer's page reads (roles × site tokens)", () => {
  let sut: SystemUnderTest;
  let clients: Record<Who, Client>;
  let ctx: Ctx;

  beforeAll(async () => {
    sut = await sharedSystem();
    const org = await organizationWithEveryRole(sut);
    const admin = http(sut.baseUrl, org.members.admin.token);
    const spaceId = await contentItem(admin, org.orgId, 'space', { title: 'Renderer matrix' });
    const seeded = await seedReusableContents(sut, org.members.admin.id, spaceId);
    const changeRequestId = (await openChangeRequest(admin, spaceId, 'Matrix')).id as string;
    const site = await createPublishedSite(admin, org.orgId, [spaceId], 'public');
    // another organization's published site, with a space of its own
    const elsewhere = http(sut.baseUrl, org.stranger.token);
    const otherOrg = await createOrganization(sut, org.stranger, 'Other renderer');
    const otherSite = await createPublishedSite(elsewhere, otherOrg, [(await createSpace(elsewhere, otherOrg, { title: 'Theirs' })).id], 'public');
    clients = {
      ...callerClients(sut, org),
      siteToken: http(sut.baseUrl, await siteToken(admin, site)),
      otherSiteToken: http(
        sut.baseUrl,
        await siteToken(admin, await createPublishedSite(admin, org.orgId, [await contentItem(admin, org.orgId, 'space', { title: 'Another' })], 'public')),
      ),
      otherOrgSiteToken: http(sut.baseUrl, await siteToken(elsewhere, otherSite)),
    };
    ctx = { spaceId, changeRequestId, seeded, shapes: [] };
  }, 180_000);

  it('answers every read as written; a hidden space like a nonexistent one', async () => {
    expect(await matrixMismatches(rows, WHO, clients, ctx)).toEqual([]);
    expect(ctx.shapes).toEqual([]);
  }, 300_000);
});
