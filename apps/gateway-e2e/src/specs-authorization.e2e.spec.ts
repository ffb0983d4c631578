import { sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { organizationWithEveryRole } from './fixtures';
import { http } from './http-client';
import { CALLERS, callerClients, Client, matrixMismatches, MatrixRow } from './matrix';
import { openapi30, processedSpec } from './spec-fixtures';

interface Ctx {
  orgId: string;
  versionId: string;
}

const SPEC = (ctx: Ctx, slug = 'matrix') => `/v1/orgs/${ctx.orgId}/openapi/${slug}`;
const text = { source: { text: openapi30('Matrix') } };

// The specs policy (docs/specs.md): every role reads (guests see nothing of the organization's specs:
// 404, like another organization's admin); edit and up give an existing spec a new source; create and
// up create specs, change their visibility and delete them. No token or a bad one: 401. A write a
// caller may not make is a 403 whether or not its slug exists, except that deleting what does not
// exist is 204 for every member who can see the specs.
//                                                                     admin create review edit comment read guest stranger bad none
const ROWS: Array<MatrixRow<Ctx>> = [
  { name: 'GET /v1/orgs/{organizationId}/openapi', call: (c, ctx) => c.get(`/v1/orgs/${ctx.orgId}/openapi`), expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401] },
  { name: 'GET …/openapi/{specSlug}', call: (c, ctx) => c.get(SPEC(ctx)), expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401] },
  { name: 'GET …/openapi/{unknown}', call: (c, ctx) => c.get(SPEC(ctx, 'unknown')), expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 401] },
  { name: 'GET …/versions', call: (c, ctx) => c.get(`${SPEC(ctx)}/versions`), expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401] },
  { name: 'GET …/versions/latest', call: (c, ctx) => c.get(`${SPEC(ctx)}/versions/latest`), expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401] },
  { name: 'GET …/versions/latest/content', call: (c, ctx) => c.get(`${SPEC(ctx)}/versions/latest/content`), expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401] },
  { name: 'GET …/versions/latest/content/raw', call: (c, ctx) => c.get(`${SPEC(ctx)}/versions/latest/content/raw`), expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401] },
  { name: 'GET …/versions/{versionId}', call: (c, ctx) => c.get(`${SPEC(ctx)}/versions/${ctx.versionId}`), expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401] },
  {
    name: 'GET …/versions/{versionId}/content',
    call: (c, ctx) => c.get(`${SPEC(ctx)}/versions/${ctx.versionId}/content`),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  { name: 'GET …/versions/{unknown}', call: (c, ctx) => c.get(`${SPEC(ctx)}/versions/unknown`), expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 401] },
  {
    name: 'POST /v1/orgs/{organizationId}/openapi',
    call: (c, ctx, who) => c.post(`/v1/orgs/${ctx.orgId}/openapi`, { slug: `posted-${who.toLowerCase()}`, ...text }),
    expect: [201, 201, 403, 403, 403, 403, 404, 404, 401, 401],
  },
  { name: 'PUT …/openapi/{specSlug} (exists)', call: (c, ctx) => c.put(SPEC(ctx), text), expect: [200, 200, 200, 200, 403, 403, 404, 404, 401, 401] },
  { name: 'PUT …/openapi/{specSlug} (new)', call: (c, ctx, who) => c.put(SPEC(ctx, `put-${who.toLowerCase()}`), text), expect: [201, 201, 403, 403, 403, 403, 404, 404, 401, 401] },
  { name: 'PATCH …/openapi/{specSlug}', call: (c, ctx) => c.patch(SPEC(ctx), { visibility: 'public' }), expect: [200, 200, 403, 403, 403, 403, 404, 404, 401, 401] },
  { name: 'PATCH …/openapi/{unknown}', call: (c, ctx) => c.patch(SPEC(ctx, 'unknown'), { visibility: 'public' }), expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 401] },
  { name: 'DELETE …/openapi/{specSlug}', call: (c, ctx, who) => c.delete(SPEC(ctx, `doomed-${who.toLowerCase()}`)), expect: [205, 205, 403, 403, 403, 403, 404, 404, 401, 401] },
  { name: 'DELETE …/openapi/{unknown}', call: (c, ctx) => c.delete(SPEC(ctx, 'unknown')), expect: [204, 204, 204, 204, 204, 204, 404, 404, 401, 401] },
];

describe('OpenAPI specs authorization matrix', () => {
  let sut: SystemUnderTest;
  let clients: Record<(typeof CALLERS)[number], Client>;
  let ctx: Ctx;

  beforeAll(async () => {
    sut = await sharedSystem();
    const org = await organizationWithEveryRole(sut);
    clients = callerClients(sut, org);
    const admin = http(sut.baseUrl, org.members.admin.token);
    await admin.put(`/v1/orgs/${org.orgId}/openapi/matrix`, text);
    // one spec per caller to delete (only those allowed to delete theirs will)
    for (const who of CALLERS) await admin.put(`/v1/orgs/${org.orgId}/openapi/doomed-${who.toLowerCase()}`, text);
    const spec = await processedSpec(admin, org.orgId, 'matrix');
    ctx = { orgId: org.orgId, versionId: spec.lastVersion as string };
  });

  test('each role, another organization, a bad token and none', async () => {
    expect(await matrixMismatches(ROWS, CALLERS, clients, ctx)).toEqual([]);
  });
});
