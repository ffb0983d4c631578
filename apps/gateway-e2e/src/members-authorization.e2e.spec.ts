import { sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { Caller, CALLERS, callerClients, Client, matrixMismatches, MatrixRow } from './matrix';
import { organizationWithEveryRole } from './fixtures';

type Who = Caller;
const WHO = CALLERS;
interface Ctx {
  orgId: string;
  target: string;
  self: Record<Who, string>;
}

// Each member endpoint × each kind of caller. "target" is the read member; "self" is the caller.
//                                                                                                   admin create review edit comment read guest stranger bad none
const MATRIX: Array<MatrixRow<Ctx>> = [
  { name: 'GET members', call: (c, x) => c.get(`/v1/orgs/${x.orgId}/members`), expect: [200, 200, 200, 200, 200, 200, 403, 404, 401, 401] },
  { name: 'GET member (other)', call: (c, x) => c.get(`/v1/orgs/${x.orgId}/members/${x.target}`), expect: [200, 200, 200, 200, 200, 200, 403, 404, 401, 401] },
  { name: 'GET member (self)', call: (c, x, w) => c.get(`/v1/orgs/${x.orgId}/members/${x.self[w]}`), expect: [200, 200, 200, 200, 200, 200, 200, 404, 401, 401] },
  {
    name: 'PATCH member role (other)',
    call: (c, x) => c.patch(`/v1/orgs/${x.orgId}/members/${x.target}`, { role: 'read' }),
    expect: [200, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  { name: 'POST member sso', call: (c, x) => c.post(`/v1/orgs/${x.orgId}/members/${x.target}/sso`), expect: [200, 403, 403, 403, 403, 403, 403, 404, 401, 401] },
  { name: 'GET member spaces', call: (c, x) => c.get(`/v1/orgs/${x.orgId}/members/${x.target}/spaces`), expect: [200, 200, 200, 200, 200, 200, 403, 404, 401, 401] },
  { name: 'DELETE member (a non-member id)', call: (c, x) => c.delete(`/v1/orgs/${x.orgId}/members/not-a-member`), expect: [204, 403, 403, 403, 403, 403, 403, 404, 401, 401] },
];

describe('authorization matrix: member endpoints', () => {
  let sut: SystemUnderTest;
  let clients: Record<Who, Client>;
  let ctx: Ctx;

  beforeAll(async () => {
    sut = await sharedSystem();
    const { orgId, members, stranger } = await organizationWithEveryRole(sut);
    clients = callerClients(sut, { orgId, members, stranger });
    const self = { ...Object.fromEntries(Object.entries(members).map(([role, u]) => [role, u.id])), stranger: stranger.id, badToken: 'x', noToken: 'x' } as Record<Who, string>;
    ctx = { orgId, target: members.read.id, self };
  });

  it('answers every caller as written, with 0 mismatches', async () => {
    expect(await matrixMismatches(MATRIX, WHO, clients, ctx)).toEqual([]);
  });

  it('lets only admins remove other members, and anyone leave', async () => {
    expect((await clients.edit.delete(`/v1/orgs/${ctx.orgId}/members/${ctx.self.comment}`)).status).toBe(403);
    expect((await clients.admin.delete(`/v1/orgs/${ctx.orgId}/members/${ctx.self.comment}`)).status).toBe(204);
    expect((await clients.comment.get(`/v1/orgs/${ctx.orgId}`)).status).toBe(404);
    expect((await clients.guest.delete(`/v1/orgs/${ctx.orgId}/members/${ctx.self.guest}`)).status).toBe(204);
    expect((await clients.guest.get(`/v1/orgs/${ctx.orgId}`)).status).toBe(404);
  });
});
