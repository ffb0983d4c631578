import { sharedOutboundSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace, unknownId } from './content-fixtures';
import { organizationWithEveryRole } from './fixtures';
import { http } from './http-client';
import { finished, runUntil, startRun } from './import-run-fixtures';
import { CALLERS, callerClients, Client, matrixMismatches, MatrixRow } from './matrix';
import { startTestWebsite, TestWebsite } from './website-fixtures';

interface Ctx {
  orgId: string;
  spaceId: string;
  runId: string;
  url: string;
}

const start = (ctx: Ctx, space = ctx.spaceId) => ({ source: { type: 'website', url: ctx.url }, target: { space } });

// Starting and cancelling need the right to edit the target space (editors and up; comment and read
// members see it: 403). Reading and listing: whoever can see the space (the guest sees nothing of it:
// 404 for a run, an empty list for the organization — it is a member). Another organization's admin:
// 404 everywhere (its runs are invisible, the organization too). No token or a bad one: 401.
//                                                                     admin create review edit comment read guest stranger bad none
const ROWS: Array<MatrixRow<Ctx>> = [
  {
    name: 'POST /v1/org/{organizationId}/imports',
    call: (c, ctx) => c.post(`/v1/org/${ctx.orgId}/imports`, start(ctx)),
    expect: [201, 201, 201, 201, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'POST /v1/org/{organizationId}/imports (unknown space)',
    call: (c, ctx) => c.post(`/v1/org/${ctx.orgId}/imports`, start(ctx, unknownId())),
    expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 401],
  },
  {
    name: 'GET /v1/org/{organizationId}/imports',
    call: (c, ctx) => c.get(`/v1/org/${ctx.orgId}/imports`),
    expect: [200, 200, 200, 200, 200, 200, 200, 404, 401, 401],
  },
  {
    name: 'GET /v1/org/{organizationId}/imports?space={spaceId}',
    call: (c, ctx) => c.get(`/v1/org/${ctx.orgId}/imports?space=${ctx.spaceId}`),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'GET /v1/org/{organizationId}/imports/{importRunId}',
    call: (c, ctx) => c.get(`/v1/org/${ctx.orgId}/imports/${ctx.runId}`),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'GET /v1/org/{organizationId}/imports/{unknown}',
    call: (c, ctx) => c.get(`/v1/org/${ctx.orgId}/imports/${unknownId()}`),
    expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 401],
  },
  {
    name: 'POST /v1/org/{organizationId}/imports/{importRunId}/cancel',
    call: (c, ctx) => c.post(`/v1/org/${ctx.orgId}/imports/${ctx.runId}/cancel`, {}),
    expect: [200, 200, 200, 200, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'POST /v1/org/{organizationId}/imports/{unknown}/cancel',
    call: (c, ctx) => c.post(`/v1/org/${ctx.orgId}/imports/${unknownId()}/cancel`, {}),
    expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 401],
  },
];

describe('import runs authorization matrix', () => {
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
    const spaceId = (await createSpace(admin, org.orgId, { title: 'Matrix import runs' })).id as string;
    // a one-page crawl (/docs/s3/p1/ holds only the deep page)
    const url = `${site.origin}/docs/s3/p1/deep`;
    const run = await startRun(admin, org.orgId, spaceId, url);
    await runUntil(admin, org.orgId, run.id as string, finished);
    ctx = { orgId: org.orgId, spaceId, runId: run.id as string, url };
  }, 180_000);
  afterAll(async () => {
    await site?.close();
  });

  // Longer than the tier: a run per role of the matrix.
  test('each role, another organization, a bad token and none', async () => {
    expect(await matrixMismatches(ROWS, CALLERS, clients, ctx)).toEqual([]);
  }, 180_000);
});
