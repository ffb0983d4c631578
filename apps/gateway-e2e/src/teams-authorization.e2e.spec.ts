import { sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createUser, organizationWithEveryRole, RoleName, TestUser } from './fixtures';
import { http } from './http-client';
import { Client, matrixMismatches } from './matrix';

// Besides one member per organization role: "owner" (role read) owns team T, "inT" (a guest) is a
// plain member of T; "stranger" is another organization's admin.
type Who = RoleName | 'owner' | 'inT' | 'stranger' | 'badToken' | 'noToken';
const WHO: Who[] = ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest', 'owner', 'inT', 'stranger', 'badToken', 'noToken'];
type Result = { status: number; body: unknown };

interface Ctx {
  orgId: string;
  /** T: owned by "owner", with "inT" in it */
  team: string;
  /** U: nobody of the callers is in it */
  otherTeam: string;
  /** a team of the stranger's organization */
  foreignTeam: string;
  /** a member of no team (the "comment" member) */
  target: string;
  self: Record<Who, string>;
  /** a new team like T, for deleting */
  freshTeam(): Promise<string>;
  /** puts the "edit" member into T, for removing */
  edited(): Promise<string>;
}

// Each team endpoint × each kind of caller, with the expected status written out.
//                                                                                                                          admin create review edit comment read guest owner inT stranger bad none
const MATRIX: Array<{ name: string; call(c: Client, x: Ctx, who: Who): Promise<Result>; expect: number[] }> = [
  { name: 'GET teams', call: (c, x) => c.get(`/v1/orgs/${x.orgId}/teams`), expect: [200, 200, 200, 200, 200, 200, 403, 200, 403, 404, 401, 401] },
  { name: 'GET teams?owner=', call: (c, x) => c.get(`/v1/orgs/${x.orgId}/teams?owner=${x.self.owner}`), expect: [200, 200, 200, 200, 200, 200, 403, 200, 403, 404, 401, 401] },
  {
    name: 'PUT teams (create)',
    call: (c, x) => c.put(`/v1/orgs/${x.orgId}/teams`, { title: 'Made in the matrix' }),
    expect: [201, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  { name: 'GET team T', call: (c, x) => c.get(`/v1/orgs/${x.orgId}/teams/${x.team}`), expect: [200, 200, 200, 200, 200, 200, 403, 200, 200, 404, 401, 401] },
  { name: 'GET team U', call: (c, x) => c.get(`/v1/orgs/${x.orgId}/teams/${x.otherTeam}`), expect: [200, 200, 200, 200, 200, 200, 403, 200, 403, 404, 401, 401] },
  {
    name: "GET another org's team here",
    call: (c, x) => c.get(`/v1/orgs/${x.orgId}/teams/${x.foreignTeam}`),
    expect: [404, 404, 404, 404, 404, 404, 404, 404, 404, 404, 401, 401],
  },
  {
    name: 'PATCH team T',
    call: (c, x) => c.patch(`/v1/orgs/${x.orgId}/teams/${x.team}`, { title: 'Team T' }),
    expect: [200, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: 'DELETE a team like T',
    call: async (c, x) => c.delete(`/v1/orgs/${x.orgId}/teams/${await x.freshTeam()}`),
    expect: [204, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  { name: 'GET T members', call: (c, x) => c.get(`/v1/orgs/${x.orgId}/teams/${x.team}/members`), expect: [200, 200, 200, 200, 200, 200, 403, 200, 200, 404, 401, 401] },
  { name: 'GET U members', call: (c, x) => c.get(`/v1/orgs/${x.orgId}/teams/${x.otherTeam}/members`), expect: [200, 200, 200, 200, 200, 200, 403, 200, 403, 404, 401, 401] },
  {
    name: 'PUT T members (bulk)',
    call: (c, x) => c.put(`/v1/orgs/${x.orgId}/teams/${x.team}/members`, { add: [x.target] }),
    expect: [204, 403, 403, 403, 403, 403, 403, 204, 403, 404, 401, 401],
  },
  {
    name: 'PUT U members (bulk)',
    call: (c, x) => c.put(`/v1/orgs/${x.orgId}/teams/${x.otherTeam}/members`, { add: [x.target] }),
    expect: [204, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: 'PUT T member',
    call: (c, x) => c.put(`/v1/orgs/${x.orgId}/teams/${x.team}/members/${x.target}`, { role: 'member' }),
    expect: [204, 403, 403, 403, 403, 403, 403, 204, 403, 404, 401, 401],
  },
  {
    name: 'PUT U member',
    call: (c, x) => c.put(`/v1/orgs/${x.orgId}/teams/${x.otherTeam}/members/${x.target}`, {}),
    expect: [204, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  // Nothing to delete: "did not exist" (204) only to whoever may delete; an invisible organization stays 404.
  {
    name: 'DELETE a team that does not exist',
    call: (c, x) => c.delete(`/v1/orgs/${x.orgId}/teams/never-was`),
    expect: [204, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: "DELETE another org's team here",
    call: (c, x) => c.delete(`/v1/orgs/${x.orgId}/teams/${x.foreignTeam}`),
    expect: [204, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: 'DELETE a member of a team that does not exist',
    call: (c, x) => c.delete(`/v1/orgs/${x.orgId}/teams/never-was/members/${x.self.owner}`),
    expect: [204, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: 'DELETE T member',
    call: async (c, x) => c.delete(`/v1/orgs/${x.orgId}/teams/${x.team}/members/${await x.edited()}`),
    expect: [204, 403, 403, 403, 403, 403, 403, 204, 403, 404, 401, 401],
  },
  {
    name: 'DELETE U member',
    call: (c, x) => c.delete(`/v1/orgs/${x.orgId}/teams/${x.otherTeam}/members/${x.self.owner}`),
    expect: [204, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: "GET member's teams (other)",
    call: (c, x) => c.get(`/v1/orgs/${x.orgId}/members/${x.self.owner}/teams`),
    expect: [200, 200, 200, 200, 200, 200, 403, 200, 403, 404, 401, 401],
  },
  {
    name: "GET member's teams (self)",
    call: (c, x, w) => c.get(`/v1/orgs/${x.orgId}/members/${x.self[w]}/teams`),
    expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 404, 401, 401],
  },
];

describe('authorization matrix: team endpoints', () => {
  let sut: SystemUnderTest;
  let clients: Record<Who, Client>;
  let ctx: Ctx;

  beforeAll(async () => {
    sut = await sharedSystem();
    const { orgId, members, stranger } = await organizationWithEveryRole(sut);
    const admin = http(sut.baseUrl, members.admin.token);
    const join = async (name: string, role: string | null): Promise<TestUser> => {
      const user = await createUser(sut, name);
      const res = await admin.post(`/v1/orgs/${orgId}/invites`, { emails: [{ email: user.email, role }] });
      if (res.status !== 200) throw new Error(`invite ${name}: ${res.status}`);
      return user;
    };
    const owner = await join('team-owner', 'read');
    const inT = await join('team-guest', null);
    const makeTeam = async (title: string, withPeople: boolean) => {
      const res = await admin.put(`/v1/orgs/${orgId}/teams`, { title, members: withPeople ? [owner.id, inT.id] : [] });
      if (res.status !== 201) throw new Error(`create team: ${res.status} ${JSON.stringify(res.body)}`);
      if (withPeople) {
        const promoted = await admin.put(`/v1/orgs/${orgId}/teams/${res.body.id}/members/${owner.id}`, { role: 'owner' });
        if (promoted.status !== 204) throw new Error(`promote: ${promoted.status}`);
      }
      return res.body.id as string;
    };
    const team = await makeTeam('Team T', true);
    const otherTeam = await makeTeam('Team U', false);
    const foreign = await http(sut.baseUrl, stranger.token).get('/v1/orgs');
    const strangerOrg = foreign.body.items[0].id as string;
    const foreignTeam = (await http(sut.baseUrl, stranger.token).put(`/v1/orgs/${strangerOrg}/teams`, { title: 'Theirs' })).body.id as string;

    clients = {
      ...(Object.fromEntries(Object.entries(members).map(([role, u]) => [role, http(sut.baseUrl, u.token)])) as Record<RoleName, Client>),
      owner: http(sut.baseUrl, owner.token),
      inT: http(sut.baseUrl, inT.token),
      stranger: http(sut.baseUrl, stranger.token),
      badToken: http(sut.baseUrl, 'gb_api_this-token-was-never-issued'),
      noToken: http(sut.baseUrl),
    };
    const self = {
      ...Object.fromEntries(Object.entries(members).map(([role, u]) => [role, u.id])),
      owner: owner.id,
      inT: inT.id,
      stranger: stranger.id,
      badToken: 'x',
      noToken: 'x',
    } as Record<Who, string>;
    ctx = {
      orgId,
      team,
      otherTeam,
      foreignTeam,
      target: members.comment.id,
      self,
      freshTeam: () => makeTeam('Doomed', true),
      async edited() {
        const res = await admin.put(`/v1/orgs/${orgId}/teams/${team}/members/${members.edit.id}`, {});
        if (res.status !== 204) throw new Error(`add edit member: ${res.status}`);
        return members.edit.id;
      },
    };
  });

  it('answers every caller as written, with 0 mismatches', async () => {
    expect(await matrixMismatches(MATRIX, WHO, clients, ctx)).toEqual([]);
  });

  it('computes team permissions with the policy that enforces them', async () => {
    // caller → [permissions.admin, permissions.view] on T
    const expected: Partial<Record<Who, [boolean, boolean]>> = {
      admin: [true, true],
      create: [false, true],
      read: [false, true],
      owner: [true, true],
      inT: [false, true],
    };
    for (const [who, [admin, view]] of Object.entries(expected) as Array<[Who, [boolean, boolean]]>) {
      const res = await clients[who].get(`/v1/orgs/${ctx.orgId}/teams/${ctx.team}`);
      expect({ who, ...res.body.permissions }).toEqual({ who, admin, view });
    }
    const listed = await clients.read.get(`/v1/orgs/${ctx.orgId}/teams`);
    for (const t of listed.body.items) expect(t.permissions).toEqual({ admin: false, view: true });
  });

  it("reports the organization's ownTeam for team owners only", async () => {
    const ownTeam = async (who: Who) => (await clients[who].get(`/v1/orgs/${ctx.orgId}`)).body.permissions.ownTeam;
    expect(await ownTeam('owner')).toBe(true);
    expect(await ownTeam('inT')).toBe(false);
    expect(await ownTeam('admin')).toBe(false);
    expect(await ownTeam('read')).toBe(false);
    // The list of the caller's organizations says the same.
    const listed = async (who: Who) => (await clients[who].get('/v1/orgs')).body.items.find((o: { id: string }) => o.id === ctx.orgId).permissions.ownTeam;
    expect(await listed('owner')).toBe(true);
    expect(await listed('inT')).toBe(false);
  });
});
