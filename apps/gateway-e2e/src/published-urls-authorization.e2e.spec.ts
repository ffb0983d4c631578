import { assertMatchesSpec, sharedSystem, SpecVersion, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { ContentWriter, contentWriter } from './content-writer';
import { organizationWithEveryRole } from './fixtures';
import { Caller, CALLERS, callerClients, Client, matrixMismatches, MatrixRow } from './matrix';
import { http } from './http-client';
import { CreatedSite, createPublishedSite, createShareLink, shareUrl, siteToken } from './site-fixtures';

type Who = Caller | 'siteToken';
const WHO: Who[] = [...CALLERS, 'siteToken'];

interface Ctx {
  orgId: string;
  publicSite: CreatedSite;
  shareLinkSite: CreatedSite;
  /** an active share key of the share-link site */
  key: string;
  unpublishedSite: CreatedSite;
  visitorAuthSite: CreatedSite;
}

const RESOLVE = '/urls/published';
const PUBLISHING_AUTH = '/orgs/{organizationId}/sites/{siteId}/publishing/auth';

/** The answer, checked against the official spec when it is a success (errors are checked by the matrix). */
async function official(version: SpecVersion, method: string, specPath: string, res: Promise<{ status: number; body: unknown }>) {
  const r = await res;
  if (r.status < 300 && r.body !== undefined) assertMatchesSpec(version, method, specPath, r.status, r.body);
  return r;
}
const resolve = (c: Client, url: string) => official('0.202.0', 'post', RESOLVE, c.post('/v1/urls/published', { url }));

// Reading of the expectations. Resolving a published URL is for anyone — each role, the guest, a
// member of another organization and a caller with no token at all alike (GitBook's renderer sends
// none): the URL and the visitor decide, never the caller's rights. A public site resolves; a
// share-link site only with an active key in the URL; an unpublished site and a visitor-auth site
// without a visitor token never (404, the same answer with or without a token). A bad token is
// still checked: 401. A site token is refused by the gateway (403): it reads published content, it
// does not mint more tokens. The site's visitor key is the admins' (a secret, like share-link keys): the
// other roles 403, the guest and another organization's member 404 (they see no site).
//                                                       admin create review edit comment read guest stranger bad none site
const ROWS: Array<MatrixRow<Ctx, Who>> = [
  {
    name: 'POST /v1/urls/published (a public site)',
    call: (c, ctx) => resolve(c, `${ctx.publicSite.url}/getting-started`),
    expect: [200, 200, 200, 200, 200, 200, 200, 200, 401, 200, 403],
  },
  {
    name: 'POST /v1/urls/published (a share-link site, no key)',
    call: (c, ctx) => resolve(c, ctx.shareLinkSite.url),
    expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 404, 403],
  },
  {
    name: 'POST /v1/urls/published (a share-link site, an active key)',
    call: (c, ctx) => resolve(c, shareUrl(ctx.shareLinkSite, ctx.key, '/getting-started')),
    expect: [200, 200, 200, 200, 200, 200, 200, 200, 401, 200, 403],
  },
  {
    name: 'POST /v1/urls/published (an unpublished site)',
    call: (c, ctx) => resolve(c, ctx.unpublishedSite.url),
    expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 404, 403],
  },
  {
    name: 'POST /v1/urls/published (a visitor-auth site, no visitor token)',
    call: (c, ctx) => resolve(c, ctx.visitorAuthSite.url),
    expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 404, 403],
  },
  {
    name: 'GET …/publishing/auth (getSitePublishingAuthById)',
    call: (c, ctx) => official('0.130.0', 'get', PUBLISHING_AUTH, c.get(`/v1/orgs/${ctx.orgId}/sites/${ctx.visitorAuthSite.id}/publishing/auth`)),
    expect: [200, 403, 403, 403, 403, 403, 404, 404, 401, 401, 403],
  },
  {
    name: 'POST …/publishing/auth/regenerate (regenerateSitePublishingAuthById)',
    call: (c, ctx) => official('0.130.0', 'post', `${PUBLISHING_AUTH}/regenerate`, c.post(`/v1/orgs/${ctx.orgId}/sites/${ctx.visitorAuthSite.id}/publishing/auth/regenerate`)),
    expect: [200, 403, 403, 403, 403, 403, 404, 404, 401, 401, 403],
  },
];

describe('published-URL resolver authorization (callers × visibilities)', () => {
  let sut: SystemUnderTest;
  let clients: Record<Who, Client>;
  let ctx: Ctx;
  let writer: ContentWriter;

  beforeAll(async () => {
    sut = await sharedSystem();
    const org = await organizationWithEveryRole(sut);
    writer = contentWriter(sut);
    const admin = http(sut.baseUrl, org.members.admin.token);
    const spaceId = (await createSpace(admin, org.orgId, { title: 'Handbook' })).id;
    await writer.apply(org.members.admin.id, spaceId, [{ operation: 'insert_page', title: 'Getting Started', document: { markdown: 'Welcome.' } }]);
    const publicSite = await createPublishedSite(admin, org.orgId, [spaceId], 'public');
    const shareLinkSite = await createPublishedSite(admin, org.orgId, [spaceId], 'share-link');
    const { key } = await createShareLink(admin, org.orgId, shareLinkSite.id);
    const unpublishedSite = await createPublishedSite(admin, org.orgId, [spaceId], 'public');
    expect((await admin.post(`/v1/orgs/${org.orgId}/sites/${unpublishedSite.id}/unpublish`)).status).toBe(200);
    const visitorAuthSite = await createPublishedSite(admin, org.orgId, [spaceId], 'visitor-auth');
    clients = { ...callerClients(sut, org), siteToken: http(sut.baseUrl, await siteToken(admin, publicSite)) };
    ctx = { orgId: org.orgId, publicSite, shareLinkSite, key, unpublishedSite, visitorAuthSite };
  }, 180000);
  afterAll(() => writer?.close());

  it('answers each caller as written, never showing the share key', async () => {
    const mismatches = await matrixMismatches(ROWS, WHO, clients, ctx, (res) => expect(JSON.stringify(res.body ?? '')).not.toContain(ctx.key));
    expect(mismatches).toEqual([]);
  });
});
