import { sharedOutboundSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace, unknownId } from './content-fixtures';
import { organizationWithEveryRole } from './fixtures';
import { http } from './http-client';
import { CALLERS, callerClients, Client, matrixMismatches, MatrixRow } from './matrix';
import { startTestWebsite, TestWebsite } from './website-fixtures';

interface Ctx {
  spaceId: string;
  changeRequestId: string;
  url: string;
}

const body = (ctx: Ctx) => ({ source: 'website', url: ctx.url });

// Editors and up may import (into the space or into a change request); comment and read members see
// the space but may not (403); the guest sees nothing of the space (404), nor does the admin of another
// organization; no token or a bad one: 401. A space that does not exist: 404 for every member.
//                                                                    admin create review edit comment read guest stranger bad none
const ROWS: Array<MatrixRow<Ctx>> = [
  {
    name: 'POST /v1/spaces/{spaceId}/content/import',
    call: (c, ctx) => c.post(`/v1/spaces/${ctx.spaceId}/content/import`, body(ctx)),
    expect: [201, 201, 201, 201, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/import',
    call: (c, ctx) => c.post(`/v1/spaces/${ctx.spaceId}/change-requests/${ctx.changeRequestId}/content/import`, body(ctx)),
    expect: [201, 201, 201, 201, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'POST /v1/spaces/{unknown}/content/import',
    call: (c, ctx) => c.post(`/v1/spaces/${unknownId()}/content/import`, body(ctx)),
    expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 401],
  },
  {
    name: 'POST /v1/spaces/{spaceId}/change-requests/{unknown}/content/import',
    call: (c, ctx) => c.post(`/v1/spaces/${ctx.spaceId}/change-requests/${unknownId()}/content/import`, body(ctx)),
    expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 401],
  },
];

describe('website import authorization matrix', () => {
  let sut: SystemUnderTest;
  let site: TestWebsite;
  let clients: Record<(typeof CALLERS)[number], Client>;
  let ctx: Ctx;

  // Longer than the tier: starts its own system (outbound guard open to the loopback test site).
  beforeAll(async () => {
    site = await startTestWebsite();
    sut = await sharedOutboundSystem();
    const org = await organizationWithEveryRole(sut);
    clients = callerClients(sut, org);
    const admin = http(sut.baseUrl, org.members.admin.token);
    const spaceId = (await createSpace(admin, org.orgId, { title: 'Matrix import' })).id;
    const cr = await admin.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Matrix import' });
    if (cr.status !== 201) throw new Error(`change request: ${cr.status} ${JSON.stringify(cr.body)}`);
    // a one-page crawl (/docs/s3/p1/ holds only the deep page)
    ctx = { spaceId, changeRequestId: cr.body.id, url: `${site.origin}/docs/s3/p1/deep` };
  }, 180_000);
  afterAll(async () => {
    await site?.close();
  });

  // Longer than the tier: a crawl per role of the matrix.
  test('each role, another organization, a bad token and none', async () => {
    expect(await matrixMismatches(ROWS, CALLERS, clients, ctx)).toEqual([]);
  }, 180_000);
});
