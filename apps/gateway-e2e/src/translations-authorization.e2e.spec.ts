import { sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { organizationWithEveryRole } from './fixtures';
import { http } from './http-client';
import { CALLERS, callerClients, Client, matrixMismatches, MatrixRow } from './matrix';

interface Ctx {
  orgId: string;
  id: string;
  doomed: Record<string, string>;
}

const ONE = (ctx: Ctx, id = ctx.id) => `/v1/orgs/${ctx.orgId}/translations/${id}`;

// Translation settings: every role reads them; only organization admins create, change and delete
// them (403 for the other roles). A guest and another organization's admin see none: 404. No token or
// a bad one: 401.
//                                                                     admin create review edit comment read guest stranger bad none
const ROWS: Array<MatrixRow<Ctx>> = [
  { name: 'GET /v1/orgs/{organizationId}/translations', call: (c, ctx) => c.get(`/v1/orgs/${ctx.orgId}/translations`), expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401] },
  {
    name: 'POST /v1/orgs/{organizationId}/translations',
    call: (c, ctx) => c.post(`/v1/orgs/${ctx.orgId}/translations`, { title: 'Posted', languages: ['de'] }),
    expect: [201, 403, 403, 403, 403, 403, 404, 404, 401, 401],
  },
  { name: 'GET …/translations/{translationSettingsId}', call: (c, ctx) => c.get(ONE(ctx)), expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401] },
  { name: 'GET …/translations/{unknown}', call: (c, ctx) => c.get(ONE(ctx, 'unknown')), expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 401] },
  {
    name: 'PUT …/translations/{translationSettingsId}',
    call: (c, ctx) => c.put(ONE(ctx), { title: 'Renamed', languages: ['fr'] }),
    expect: [200, 403, 403, 403, 403, 403, 404, 404, 401, 401],
  },
  { name: 'DELETE …/translations/{translationSettingsId}', call: (c, ctx, who) => c.delete(ONE(ctx, ctx.doomed[who])), expect: [205, 403, 403, 403, 403, 403, 404, 404, 401, 401] },
  { name: 'DELETE …/translations/{unknown}', call: (c, ctx) => c.delete(ONE(ctx, 'unknown')), expect: [204, 204, 204, 204, 204, 204, 404, 404, 401, 401] },
];

describe('translation settings authorization matrix', () => {
  let sut: SystemUnderTest;
  let clients: Record<(typeof CALLERS)[number], Client>;
  let ctx: Ctx;

  beforeAll(async () => {
    sut = await sharedSystem();
    const org = await organizationWithEveryRole(sut);
    clients = callerClients(sut, org);
    const admin = http(sut.baseUrl, org.members.admin.token);
    const create = async (title: string) => (await admin.post(`/v1/orgs/${org.orgId}/translations`, { title, languages: ['fr'] })).body.id as string;
    const doomed: Record<string, string> = {};
    for (const who of CALLERS) doomed[who] = await create(`Doomed ${who}`);
    ctx = { orgId: org.orgId, id: await create('Matrix'), doomed };
  });

  test('each role, another organization, a bad token and none', async () => {
    expect(await matrixMismatches(ROWS, CALLERS, clients, ctx)).toEqual([]);
  });
});
