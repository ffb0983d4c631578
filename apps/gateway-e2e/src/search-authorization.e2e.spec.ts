import { sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { contentItem, unknownId } from './content-fixtures';
import { ContentWriter, contentWriter } from './content-writer';
import { organizationWithEveryRole } from './fixtures';
import { Caller, CALLERS, callerClients, Client, matrixMismatches, MatrixRow } from './matrix';
import { http } from './http-client';
import { Json, search, untilFirst } from './search-fixtures';

interface Ctx {
  orgId: string;
  open: string;
  restricted: string;
  /** a rebuild run the instance admin started */
  runId: string;
}

// Reading of the expectations: a space search needs read on the space (members with a role read an
// open space through `inherit`; a restricted one only the admin); the guest has no grant; what a
// caller cannot read is the same 404 as a space that does not exist. An organization search is for
// members (the guest too: it sees nothing); the stranger is no member: 404. Rebuilding is for
// instance admins only: 403 for everyone here, and so is reading a rebuild run (even one that does
// not exist: the caller may not ask). No token or a bad one: 401.
//                                                          admin create review edit comment read guest stranger bad none
const ROWS: Array<MatrixRow<Ctx>> = [
  {
    name: 'GET /v1/spaces/{open}/search (searchSpaceContent)',
    call: (c, ctx) => c.get(`/v1/spaces/${ctx.open}/search?query=falcon`),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'GET /v1/spaces/{restricted}/search',
    call: (c, ctx) => c.get(`/v1/spaces/${ctx.restricted}/search?query=falcon`),
    expect: [200, 404, 404, 404, 404, 404, 404, 404, 401, 401],
  },
  {
    name: 'GET /v1/spaces/{no such space}/search',
    call: (c) => c.get(`/v1/spaces/${unknownId()}/search?query=falcon`),
    expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 401],
  },
  {
    name: 'GET /v1/orgs/{orgId}/search (searchOrganizationContent)',
    call: (c, ctx) => c.get(`/v1/orgs/${ctx.orgId}/search?query=falcon`),
    expect: [200, 200, 200, 200, 200, 200, 200, 404, 401, 401],
  },
  {
    name: 'GET /v1/orgs/{orgId}/search with a query over 512 characters',
    call: (c, ctx) => c.get(`/v1/orgs/${ctx.orgId}/search?query=${'q'.repeat(513)}`),
    expect: [400, 400, 400, 400, 400, 400, 400, 400, 401, 401],
  },
  {
    name: 'POST /admin/search/rebuild',
    call: (c) => c.post('/admin/search/rebuild', {}),
    expect: [403, 403, 403, 403, 403, 403, 403, 403, 401, 401],
  },
  {
    name: 'GET /admin/search/rebuilds/{runId}',
    call: (c, ctx) => c.get(`/admin/search/rebuilds/${ctx.runId}`),
    expect: [403, 403, 403, 403, 403, 403, 403, 403, 401, 401],
  },
  {
    name: 'POST /admin/search/rebuilds/{runId}/cancel',
    call: (c, ctx) => c.post(`/admin/search/rebuilds/${ctx.runId}/cancel`, undefined),
    expect: [403, 403, 403, 403, 403, 403, 403, 403, 401, 401],
  },
  {
    name: 'GET /admin/search/rebuilds/{no such run}',
    call: (c) => c.get(`/admin/search/rebuilds/${unknownId()}`),
    expect: [403, 403, 403, 403, 403, 403, 403, 403, 401, 401],
  },
];

// Spaces found by an organization search for "falcon", per caller: both for the admin, the open one
// for every role, none for the guest.
const VISIBLE: Partial<Record<Caller, number>> = { admin: 2, create: 1, review: 1, edit: 1, comment: 1, read: 1, guest: 0 };

describe('search authorization (roles × endpoints)', () => {
  let sut: SystemUnderTest;
  let clients: Record<Caller, Client>;
  let ctx: Ctx;
  let writer: ContentWriter;

  // Longer than the tier: seeds an organization, spaces and a member per role through the API.
  beforeAll(async () => {
    sut = await sharedSystem();
    const org = await organizationWithEveryRole(sut);
    clients = callerClients(sut, org);
    writer = contentWriter(sut);
    const admin = clients.admin;
    const open = await contentItem(admin, org.orgId, 'space', { title: 'Open' });
    const restricted = await contentItem(admin, org.orgId, 'space', { title: 'Restricted', defaultLevel: null });
    const rebuild = await http(sut.baseUrl, sut.adminToken).post('/admin/search/rebuild', { spaces: [open] });
    expect(rebuild.status).toBe(202);
    ctx = { orgId: org.orgId, open, restricted, runId: rebuild.body.id };
    for (const spaceId of [open, restricted]) {
      await writer.apply(org.members.admin.id, spaceId, [{ operation: 'insert_page', title: 'Falcon', document: { markdown: 'The falcon flies.' } }]);
      await untilFirst(admin, spaceId, 'falcon', 'Falcon');
    }
  }, 180000);
  afterAll(() => writer?.close());

  it('answers each caller as written', async () => {
    expect(await matrixMismatches(ROWS, CALLERS, clients, ctx)).toEqual([]);
  });

  it('counts only the spaces each member can read', async () => {
    const seen: Partial<Record<Caller, number>> = {};
    for (const who of Object.keys(VISIBLE) as Caller[]) {
      const body: Json = await search(clients[who], `/v1/orgs/${ctx.orgId}/search`, 'falcon');
      expect(body.items).toHaveLength(body.count);
      seen[who] = body.count;
    }
    expect(seen).toEqual(VISIBLE);
  });
});
