import { assertErrorBody, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { Caller, CALLERS, callerClients, Client, matrixMismatches, MatrixRow } from './matrix';
import { createOrganization, organizationWithEveryRole, TestUser } from './fixtures';

type Who = Caller;
const WHO = CALLERS;

interface Ctx {
  orgId: string;
  inviteId: string;
  /** deleted by the admin's call; the others must be refused before it matters */
  deleteTarget: string;
  /** joined with by everyone: members stay as they are, the stranger joins */
  joinInvite: string;
}

type Row = MatrixRow<Ctx>;

// Each link-invite endpoint × each kind of caller, with the expected status written out. Invites are
// managed by organization admins only; joining is for whoever holds an invite (a member stays as
// they are); joining by e-mail domain needs an address in one of the organization's domains (this
// organization has none: members stay as they are, the stranger learns nothing). The invite join
// comes last: it makes the stranger a member.
//                                                                                                     admin create review edit comment read guest stranger bad none
const MATRIX: Row[] = [
  {
    name: 'POST /v1/orgs/{orgId}/link-invites',
    call: (c, x) => c.post(`/v1/orgs/${x.orgId}/link-invites`, { role: 'read' }),
    expect: [201, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  { name: 'GET /v1/orgs/{orgId}/link-invites', call: (c, x) => c.get(`/v1/orgs/${x.orgId}/link-invites`), expect: [200, 403, 403, 403, 403, 403, 403, 404, 401, 401] },
  {
    name: 'GET /v1/orgs/{orgId}/link-invites/{id}',
    call: (c, x) => c.get(`/v1/orgs/${x.orgId}/link-invites/${x.inviteId}`),
    expect: [200, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: 'PATCH /v1/orgs/{orgId}/link-invites/{id}',
    call: (c, x) => c.patch(`/v1/orgs/${x.orgId}/link-invites/${x.inviteId}`, { role: 'comment' }),
    expect: [200, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: 'DELETE /v1/orgs/{orgId}/link-invites/{id}',
    call: (c, x) => c.delete(`/v1/orgs/${x.orgId}/link-invites/${x.deleteTarget}`),
    expect: [205, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  { name: 'POST /v1/orgs/{orgId}/join', call: (c, x) => c.post(`/v1/orgs/${x.orgId}/join`), expect: [204, 204, 204, 204, 204, 204, 204, 404, 401, 401] },
  { name: 'POST /v1/orgs/{orgId}/invites/{id}', call: (c, x) => c.post(`/v1/orgs/${x.orgId}/invites/${x.joinInvite}`), expect: [200, 200, 200, 200, 200, 200, 200, 200, 401, 401] },
];

describe('authorization matrix: link invites and joining', () => {
  let sut: SystemUnderTest;
  let clients: Record<Who, Client>;
  let stranger: TestUser;
  let ctx: Ctx;

  beforeAll(async () => {
    sut = await sharedSystem();
    const setup = await organizationWithEveryRole(sut);
    stranger = setup.stranger;
    clients = callerClients(sut, setup);
    const make = async (role: string | null) => {
      const res = await clients.admin.post(`/v1/orgs/${setup.orgId}/link-invites`, { role });
      if (res.status !== 201) throw new Error(`setup: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.id as string;
    };
    ctx = { orgId: setup.orgId, inviteId: await make('read'), deleteTarget: await make('edit'), joinInvite: await make('comment') };
  });

  it('answers every caller as written, with 0 mismatches', async () => {
    // Refused callers never see an invite id, in a body or a message.
    const revealsNoId = (res: { status: number; body: unknown }) => {
      if (res.status >= 400) for (const id of [ctx.inviteId, ctx.deleteTarget, ctx.joinInvite]) expect(JSON.stringify(res.body)).not.toContain(id);
    };
    expect(await matrixMismatches(MATRIX, WHO, clients, ctx, revealsNoId)).toEqual([]);
  });

  it('changes nothing for refused callers, and nothing for members who joined again', async () => {
    const list = await clients.admin.get(`/v1/orgs/${ctx.orgId}/link-invites`);
    // The admin's POST made the only extra invite, the admin's PATCH the only change, the admin's DELETE the only deletion.
    expect(list.body.count).toBe(3);
    const roles = Object.fromEntries(list.body.items.map((i: { id: string; role: string | null }) => [i.id, i.role]));
    expect(roles[ctx.inviteId]).toBe('comment');
    expect(roles[ctx.joinInvite]).toBe('comment');
    expect(roles[ctx.deleteTarget]).toBeUndefined();
    // Members kept their roles; the stranger joined with the invite's role.
    const expected: Array<[Who, { admin: boolean; createContent: boolean; listMembers: boolean }]> = [
      ['admin', { admin: true, createContent: true, listMembers: true }],
      ['create', { admin: false, createContent: true, listMembers: true }],
      ['read', { admin: false, createContent: false, listMembers: true }],
      ['guest', { admin: false, createContent: false, listMembers: false }],
      ['stranger', { admin: false, createContent: false, listMembers: true }],
    ];
    for (const [who, perms] of expected) {
      const res = await clients[who].get(`/v1/orgs/${ctx.orgId}`);
      expect({ who, status: res.status, ...res.body.permissions }).toMatchObject({ who, status: 200, view: true, ...perms });
    }
  });

  it("finds nothing of another organization's invites", async () => {
    const elsewhere = await createOrganization(sut, stranger, 'Elsewhere with invites');
    const theirs = await clients.stranger.post(`/v1/orgs/${elsewhere}/link-invites`, { role: 'admin' });
    expect(theirs.status).toBe(201);
    const id = theirs.body.id;
    // Their invite under this organization's path: not here.
    //                                                                      expected
    const cases: Array<[string, () => Promise<{ status: number; body: unknown }>, number]> = [
      ['GET', () => clients.admin.get(`/v1/orgs/${ctx.orgId}/link-invites/${id}`), 404],
      ['PATCH', () => clients.admin.patch(`/v1/orgs/${ctx.orgId}/link-invites/${id}`, { role: 'read' }), 404],
      ['DELETE (there was no such invite here)', () => clients.admin.delete(`/v1/orgs/${ctx.orgId}/link-invites/${id}`), 204],
      ['join this organization with it', () => clients.read.post(`/v1/orgs/${ctx.orgId}/invites/${id}`), 404],
      ["GET their organization's invite", () => clients.admin.get(`/v1/orgs/${elsewhere}/link-invites/${id}`), 404],
      ["DELETE their organization's invite", () => clients.admin.delete(`/v1/orgs/${elsewhere}/link-invites/${id}`), 404],
    ];
    for (const [name, call, status] of cases) {
      const res = await call();
      expect({ name, status: res.status }).toEqual({ name, status });
      if (status >= 400) assertErrorBody(status, res.body);
    }
    const still = await clients.stranger.get(`/v1/orgs/${elsewhere}/link-invites/${id}`);
    expect(still.status).toBe(200);
    expect(still.body.role).toBe('admin');
  });
});
