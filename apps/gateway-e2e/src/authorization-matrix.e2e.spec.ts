import { sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { Caller, CALLERS, callerClients, Client, matrixMismatches, MatrixRow } from './matrix';
import { organizationWithEveryRole, RoleName } from './fixtures';
import { http } from './http-client';

type Who = Caller;
const WHO = CALLERS;

type Row = MatrixRow<{ orgId: string; someUserId: string }>;

// Each identity endpoint × each kind of caller, with the expected status written out.
//                                                                          admin create review edit comment read guest stranger bad none
const MATRIX: Row[] = [
  { name: 'GET /v1/user', call: (c) => c.get('/v1/user'), expect: [200, 200, 200, 200, 200, 200, 200, 200, 401, 401] },
  { name: 'GET /v1/users/{userId}', call: (c, x) => c.get(`/v1/users/${x.someUserId}`), expect: [200, 200, 200, 200, 200, 200, 200, 404, 401, 401] },
  { name: 'GET /v1/orgs', call: (c) => c.get('/v1/orgs'), expect: [200, 200, 200, 200, 200, 200, 200, 200, 401, 401] },
  { name: 'POST /v1/orgs', call: (c) => c.post('/v1/orgs', { title: 'Made in the matrix' }), expect: [201, 201, 201, 201, 201, 201, 201, 201, 401, 401] },
  { name: 'GET /v1/orgs/{orgId}', call: (c, x) => c.get(`/v1/orgs/${x.orgId}`), expect: [200, 200, 200, 200, 200, 200, 200, 404, 401, 401] },
  { name: 'PATCH /v1/orgs/{orgId}', call: (c, x) => c.patch(`/v1/orgs/${x.orgId}`, { ai: true }), expect: [200, 403, 403, 403, 403, 403, 403, 404, 401, 401] },
  { name: 'GET /v1/email-domains/{d}/orgs', call: (c) => c.get('/v1/email-domains/example.com/orgs'), expect: [200, 200, 200, 200, 200, 200, 200, 200, 401, 401] },
  { name: 'POST /v1/orgs/{orgId}/ping', call: (c, x) => c.post(`/v1/orgs/${x.orgId}/ping`), expect: [200, 200, 200, 200, 200, 200, 200, 404, 401, 401] },
  {
    name: 'POST /v1/orgs/{orgId}/invites',
    call: (c, x) => c.post(`/v1/orgs/${x.orgId}/invites`, { emails: ['nobody-yet@example.com'] }),
    expect: [200, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: 'POST /admin/users',
    call: (c) => c.post('/admin/users', { email: `m-${Math.random().toString(36).slice(2)}@example.com`, displayName: 'M' }),
    expect: [403, 403, 403, 403, 403, 403, 403, 403, 401, 401],
  },
  { name: 'POST /admin/users/{id}/tokens', call: (c, x) => c.post(`/admin/users/${x.someUserId}/tokens`, {}), expect: [403, 403, 403, 403, 403, 403, 403, 403, 401, 401] },
];

describe('authorization matrix: identity endpoints', () => {
  let sut: SystemUnderTest;
  let clients: Record<Who, Client>;
  let ctx: { orgId: string; someUserId: string };

  beforeAll(async () => {
    sut = await sharedSystem();
    const { orgId, members, stranger } = await organizationWithEveryRole(sut);
    clients = callerClients(sut, { orgId, members, stranger });
    ctx = { orgId, someUserId: members.read.id };
  });

  it('answers every caller as written, with 0 mismatches', async () => {
    expect(await matrixMismatches(MATRIX, WHO, clients, ctx)).toEqual([]);
  });

  it('lets the instance administrator use the admin routes', async () => {
    const admin = http(sut.baseUrl, sut.adminToken);
    const user = await admin.post('/admin/users', { email: 'made-by-admin@example.com', displayName: 'Made' });
    expect(user.status).toBe(201);
    const token = await admin.post(`/admin/users/${user.body.id}/tokens`, { label: 'ci' });
    expect(token.status).toBe(201);
    expect(token.body).toMatchObject({ object: 'api-token', label: 'ci' });
    expect(token.body.token).toMatch(/^gb_api_/);
  });

  it('computes permissions for each role with the policy that enforces them', async () => {
    const expected: Record<RoleName, { admin: boolean; createContent: boolean; listMembers: boolean }> = {
      admin: { admin: true, createContent: true, listMembers: true },
      create: { admin: false, createContent: true, listMembers: true },
      review: { admin: false, createContent: false, listMembers: true },
      edit: { admin: false, createContent: false, listMembers: true },
      comment: { admin: false, createContent: false, listMembers: true },
      read: { admin: false, createContent: false, listMembers: true },
      guest: { admin: false, createContent: false, listMembers: false },
    };
    for (const [role, perms] of Object.entries(expected)) {
      const res = await clients[role as RoleName].get(`/v1/orgs/${ctx.orgId}`);
      expect({ role, ...res.body.permissions }).toMatchObject({ role, view: true, ...perms });
    }
  });
});
