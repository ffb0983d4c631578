import { assertErrorBody, assertMatchesSpec, eventually, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { organizationWithEveryRole, RoleName, TestUser } from './fixtures';
import { Client, http, walk } from './http-client';
import { createTeam } from './team-fixtures';

// Every permission operation below is in both releases; 0.130.0 is the reference.
const V = '0.130.0';
const SPACE = '/spaces/{spaceId}';
const COLLECTION = '/collections/{collectionId}';
const MEMBER_SPACES = '/orgs/{organizationId}/members/{userId}/spaces';

type Org = Awaited<ReturnType<typeof organizationWithEveryRole>>;
type Kind = 'space' | 'collection';
interface Grant {
  permission: string;
  user?: { id: string; displayName: string; email: string };
  team?: { id: string; title: string };
}

describe('content permissions through the gateway', () => {
  let sut: SystemUnderTest;

  beforeAll(async () => {
    sut = await sharedSystem();
  });

  const as = (user: TestUser) => http(sut.baseUrl, user.token);
  const base = (kind: Kind, id: string) => `/v1/${kind === 'space' ? 'spaces' : 'collections'}/${id}`;
  const specBase = (kind: Kind) => (kind === 'space' ? SPACE : COLLECTION);

  /** An organization with a member per role (content answers for each of them on their next request). */
  const contentOrg = (): Promise<Org> => organizationWithEveryRole(sut);

  async function createSpace(client: Client, orgId: string, body: Record<string, unknown> = {}): Promise<string> {
    const res = await client.post(`/v1/orgs/${orgId}/spaces`, { title: 'A space', ...body });
    if (res.status !== 201) throw new Error(`create space: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id;
  }

  async function createCollection(client: Client, orgId: string, body: Record<string, unknown> = {}): Promise<string> {
    const res = await client.post(`/v1/orgs/${orgId}/collections`, { title: 'A collection', ...body });
    if (res.status !== 201) throw new Error(`create collection: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id;
  }

  async function setDefaultLevel(client: Client, kind: Kind, id: string, defaultLevel: string | null) {
    const res = await client.patch(base(kind, id), { defaultLevel });
    expect(res.status).toBe(200);
    expect(res.body.defaultLevel).toBe(defaultLevel);
  }

  /** A 204 or 205 answer: no body. */
  async function expectEmpty(promise: Promise<{ status: number; body: unknown }>, status: 204 | 205) {
    const res = await promise;
    expect({ status: res.status, body: res.body }).toEqual({ status, body: undefined });
  }

  /** A refusal in the error shape, with the status (and, if given, words of the message). */
  async function expectError(promise: Promise<{ status: number; body: { error?: { message?: string } } }>, status: number, message?: string) {
    const res = await promise;
    expect({ status: res.status, body: res.body }).toMatchObject({ status });
    assertErrorBody(status, res.body);
    if (message) expect(res.body.error!.message).toContain(message);
  }

  /** The direct grants to users (or teams) of a space or collection, validated, as [id, permission] pairs sorted by id. */
  async function grants(client: Client, kind: Kind, id: string, principals: 'users' | 'teams'): Promise<Array<[string, string]>> {
    const res = await client.get(`${base(kind, id)}/permissions/${principals}`);
    expect(res.status).toBe(200);
    assertMatchesSpec(V, 'get', `${specBase(kind)}/permissions/${principals}`, 200, res.body);
    expect(res.body.count).toBe(res.body.items.length);
    return (res.body.items as Grant[]).map((g) => [(g.user ?? g.team)!.id, g.permission] as [string, string]).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  }

  /** Everyone's effective role (aggregate), validated, following every page; the count of each page is the whole count. */
  async function aggregate(client: Client, kind: Kind, id: string, role?: string): Promise<Record<string, string>> {
    let count = -1;
    const items = await walk<Grant>(client, `${base(kind, id)}/permissions/aggregate${role ? `?role=${role}` : ''}`, 3, (body) => {
      assertMatchesSpec(V, 'get', `${specBase(kind)}/permissions/aggregate`, 200, body);
      if (count < 0) count = body.count;
      expect(body.count).toBe(count);
    });
    expect(items).toHaveLength(count);
    const out: Record<string, string> = {};
    for (const item of items) {
      expect(out[item.user!.id]).toBeUndefined();
      out[item.user!.id] = item.permission;
    }
    return out;
  }

  /** What `user` may do on the space: its `permissions`, or the status when they cannot read it. */
  async function spaceAs(user: TestUser, spaceId: string): Promise<Record<string, boolean> | number> {
    const res = await as(user).get(`/v1/spaces/${spaceId}`);
    if (res.status !== 200) {
      assertErrorBody(res.status, res.body);
      return res.status;
    }
    assertMatchesSpec(V, 'get', SPACE, 200, res.body);
    return res.body.permissions;
  }

  const byRole = (org: Org, roles: Partial<Record<RoleName, string>>) => Object.fromEntries(Object.entries(roles).map(([r, p]) => [org.members[r as RoleName].id, p]));

  it('invites users to a space, lists, updates and removes their grants', async () => {
    const org = await contentOrg();
    const { admin, read, comment, guest } = org.members;
    const api = as(admin);
    const spaceId = await createSpace(api, org.orgId);
    const path = `/v1/spaces/${spaceId}/permissions`;
    expect(await grants(api, 'space', spaceId, 'users')).toEqual([]);

    await expectEmpty(api.post(path, { role: 'edit', users: [read.id, guest.id] }), 204);
    const list = await api.get(`${path}/users`);
    assertMatchesSpec(V, 'get', `${SPACE}/permissions/users`, 200, list.body);
    expect(list.body.count).toBe(2);
    expect([...list.body.items].sort((a: Grant, b: Grant) => (a.user!.id < b.user!.id ? -1 : 1))).toEqual(
      [read, guest]
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .map((u) => ({ permission: 'edit', user: expect.objectContaining({ object: 'user', id: u.id, displayName: u === read ? 'read' : 'guest', email: u.email }) })),
    );
    // Readers of the space see its grants too.
    expect(await grants(as(comment), 'space', spaceId, 'users')).toEqual(await grants(api, 'space', spaceId, 'users'));
    // The grant takes effect at once: the guest (no default) can now edit.
    expect(await spaceAs(guest, spaceId)).toMatchObject({ view: true, edit: true, review: false, admin: false });

    // Inviting again replaces the role.
    await expectEmpty(api.post(path, { role: 'comment', users: [guest.id] }), 204);
    await expectEmpty(api.patch(`${path}/users/${read.id}`, { role: 'review' }), 204);
    expect(await grants(api, 'space', spaceId, 'users')).toEqual(
      [
        [read.id, 'review'],
        [guest.id, 'comment'],
      ].sort((a, b) => (a[0] < b[0] ? -1 : 1)),
    );
    expect(await spaceAs(guest, spaceId)).toMatchObject({ comment: true, edit: false });

    // Updating a grant nobody has: 404; nothing changes.
    await expectError(api.patch(`${path}/users/${comment.id}`, { role: 'edit' }), 404);
    await expectError(api.patch(`${path}/users/never-was`, { role: 'edit' }), 404);
    // Someone who is not a member of the organization cannot be invited: 400, and nothing changes.
    await expectError(api.post(path, { role: 'read', users: [comment.id, org.stranger.id] }), 400, org.stranger.id);
    await expectError(api.post(path, { role: 'read', users: ['nobody-at-all'] }), 400, 'nobody-at-all');
    await expectError(api.post(path, { role: 'read', teams: ['no-such-team'] }), 400, 'no-such-team');
    for (const body of [
      { role: 'read' },
      { users: [comment.id] },
      { role: 'owner', users: [comment.id] },
      { role: 'read', users: [] },
      { role: 'read', users: [comment.id], extra: 1 },
    ]) {
      await expectError(api.post(path, body), 400);
    }
    await expectError(api.patch(`${path}/users/${read.id}`, {}), 400);
    await expectError(api.patch(`${path}/users/${read.id}`, { role: 'owner' }), 400);
    expect(await grants(api, 'space', spaceId, 'users')).toHaveLength(2);

    // Role null withdraws the grants; then the guest sees nothing again.
    await expectEmpty(api.post(path, { role: null, users: [guest.id] }), 204);
    expect(await grants(api, 'space', spaceId, 'users')).toEqual([[read.id, 'review']]);
    expect(await spaceAs(guest, spaceId)).toBe(404);
    // PATCH with role null withdraws too.
    await expectEmpty(api.patch(`${path}/users/${read.id}`, { role: null }), 204);
    expect(await grants(api, 'space', spaceId, 'users')).toEqual([]);
    await expectError(api.patch(`${path}/users/${read.id}`, { role: 'read' }), 404);

    // Removing: 205, then 204 (there was nothing to remove).
    await expectEmpty(api.post(path, { role: 'edit', users: [read.id] }), 204);
    await expectEmpty(api.delete(`${path}/users/${read.id}`), 205);
    await expectEmpty(api.delete(`${path}/users/${read.id}`), 204);
    await expectEmpty(api.delete(`${path}/users/never-was`), 204);
    expect(await grants(api, 'space', spaceId, 'users')).toEqual([]);
    expect(await spaceAs(read, spaceId)).toMatchObject({ view: true, edit: false, comment: false });
  });

  it('lets only admins of the space manage its permissions, and hides them from those who cannot read it', async () => {
    const org = await contentOrg();
    const { admin, create, read, guest } = org.members;
    const spaceId = await createSpace(as(admin), org.orgId);
    const path = `/v1/spaces/${spaceId}/permissions`;
    await expectEmpty(as(admin).post(path, { role: 'read', users: [guest.id] }), 204);
    // Readers who are not admins of the space: 403.
    await expectError(as(create).post(path, { role: 'edit', users: [read.id] }), 403);
    await expectError(as(read).patch(`${path}/users/${guest.id}`, { role: 'edit' }), 403);
    await expectError(as(read).delete(`${path}/users/${guest.id}`), 403);
    // A guest granted read can list (they can read the space) but not manage.
    expect(await grants(as(guest), 'space', spaceId, 'users')).toEqual([[guest.id, 'read']]);
    await expectError(as(guest).post(path, { role: 'admin', users: [guest.id] }), 403);
    // Someone outside the organization, or a space that does not exist: 404; no token: 401.
    for (const sub of ['/users', '/teams', '/aggregate']) {
      await expectError(as(org.stranger).get(`${path}${sub}`), 404);
      await expectError(as(admin).get(`/v1/spaces/no-such-space/permissions${sub}`), 404);
      await expectError(http(sut.baseUrl).get(`${path}${sub}`), 401);
    }
    await expectError(as(org.stranger).post(path, { role: 'admin', users: [org.stranger.id] }), 404);
    await expectError(as(admin).post('/v1/spaces/no-such-space/permissions', { role: 'read', users: [read.id] }), 404);
    // A space admin by grant manages permissions.
    await expectEmpty(as(admin).post(path, { role: 'admin', users: [read.id] }), 204);
    await expectEmpty(as(read).patch(`${path}/users/${guest.id}`, { role: 'comment' }), 204);
    expect(await grants(as(admin), 'space', spaceId, 'users')).toEqual(
      [
        [read.id, 'admin'],
        [guest.id, 'comment'],
      ].sort((a, b) => (a[0] < b[0] ? -1 : 1)),
    );
  });

  it('grants a role to a team: its members get it while they are in the team and the team exists', async () => {
    const org = await contentOrg();
    const { admin, guest, read } = org.members;
    const api = as(admin);
    const spaceId = await createSpace(api, org.orgId);
    const path = `/v1/spaces/${spaceId}/permissions`;
    expect(await spaceAs(guest, spaceId)).toBe(404);

    const teamId = await createTeam(api, org.orgId, 'Writers', [guest.id]);
    // A team created a moment ago may be given a role at once.
    const granted = await api.post(path, { role: 'edit', teams: [teamId] });
    expect({ status: granted.status, body: granted.body }).toEqual({ status: 204, body: undefined });
    const teams = await api.get(`${path}/teams`);
    assertMatchesSpec(V, 'get', `${SPACE}/permissions/teams`, 200, teams.body);
    expect(teams.body).toMatchObject({ count: 1, items: [{ permission: 'edit', team: { object: 'team', id: teamId, title: 'Writers' } }] });
    expect(await grants(api, 'space', spaceId, 'users')).toEqual([]);

    // The guest, in the team, now sees the space and may edit it.
    expect(await spaceAs(guest, spaceId)).toMatchObject({ view: true, edit: true, review: false, admin: false });
    // The aggregate is computed from content's copy of the members' teams: the guest's membership shows
    // there once identity's event arrived (tens of milliseconds; decisions/0004, "Limits").
    await eventually(async () => expect((await aggregate(api, 'space', spaceId))[guest.id]).toBe('edit'), 1000, 10);
    // The team grant adds to the read member's default.
    // A right that is refused is confirmed at identity at once, but an allowed read shows the
    // `permissions` content's copy knows: a team joined shows there once identity's event arrived
    // (tens of milliseconds; decisions/0004, "Limits").
    await expectEmpty(api.put(`/v1/orgs/${org.orgId}/teams/${teamId}/members/${read.id}`, {}), 204);
    await eventually(async () => expect(await spaceAs(read, spaceId)).toMatchObject({ edit: true }), 1000, 10);

    // Changing the team's role.
    await expectEmpty(api.patch(`${path}/teams/${teamId}`, { role: 'review' }), 204);
    expect(await grants(api, 'space', spaceId, 'teams')).toEqual([[teamId, 'review']]);
    expect(await spaceAs(guest, spaceId)).toMatchObject({ review: true, merge: true, admin: false });
    await expectError(api.patch(`${path}/teams/never-was`, { role: 'edit' }), 404);

    // Out of the team, the guest loses the space within a short time (a revoked right travels as
    // identity's event to content's copy: bounded, not at once).
    await expectEmpty(api.delete(`/v1/orgs/${org.orgId}/teams/${teamId}/members/${guest.id}`), 204);
    await eventually(async () => expect(await spaceAs(guest, spaceId)).toBe(404), 10000, 20);
    expect(await aggregate(api, 'space', spaceId)).not.toHaveProperty(guest.id);
    expect(await spaceAs(read, spaceId)).toMatchObject({ review: true });

    // Team grants are removed like user grants: 205, then 204.
    await expectEmpty(api.delete(`${path}/teams/${teamId}`), 205);
    await expectEmpty(api.delete(`${path}/teams/${teamId}`), 204);
    expect(await grants(api, 'space', spaceId, 'teams')).toEqual([]);
    expect(await spaceAs(read, spaceId)).toMatchObject({ view: true, edit: false });

    // Once the team is deleted, its grant stops counting (and is withdrawn).
    await expectEmpty(api.post(path, { role: 'edit', teams: [teamId] }), 204);
    expect(await spaceAs(read, spaceId)).toMatchObject({ edit: true });
    await expectEmpty(api.delete(`/v1/orgs/${org.orgId}/teams/${teamId}`), 204);
    // The deletion reaches content as identity's event: the right ends within a bound, and content's
    // consumer then withdraws the team's grants.
    await eventually(async () => expect(await spaceAs(read, spaceId)).toMatchObject({ view: true, edit: false }), 10000, 20);
    await eventually(async () => expect((await api.get(`${path}/teams`)).body).toEqual({ items: [], count: 0 }));
    expect((await aggregate(api, 'space', spaceId))[read.id]).toBe('read');
    // A deleted team cannot be invited again.
    await expectError(api.post(path, { role: 'edit', teams: [teamId] }), 400, teamId);
  });

  it('inherits roles through a restricted collection: grants on it, the strongest role, and the default level of the space', async () => {
    const org = await contentOrg();
    const m = org.members;
    const api = as(m.admin);
    const collectionId = await createCollection(api, org.orgId, { title: 'Restricted' });
    await setDefaultLevel(api, 'collection', collectionId, null);
    const spaceId = await createSpace(api, org.orgId, { parent: collectionId });
    expect((await api.get(`/v1/spaces/${spaceId}`)).body).toMatchObject({ defaultLevel: 'inherit', parent: collectionId });

    // Nobody but the admins sees inside the restricted collection.
    for (const role of ['create', 'review', 'edit', 'comment', 'read', 'guest'] as const) {
      expect({ role, status: await spaceAs(m[role], spaceId) }).toEqual({ role, status: 404 });
      await expectError(as(m[role]).get(`/v1/collections/${collectionId}`), 404);
    }
    expect(await spaceAs(m.admin, spaceId)).toMatchObject({ admin: true, edit: true, merge: true });
    expect(await aggregate(api, 'space', spaceId)).toEqual(byRole(org, { admin: 'admin' }));

    // A grant of review on the collection reaches the space inside it.
    await expectEmpty(api.post(`/v1/collections/${collectionId}/permissions`, { role: 'review', users: [m.read.id] }), 204);
    const collection = await as(m.read).get(`/v1/collections/${collectionId}`);
    expect(collection.status).toBe(200);
    assertMatchesSpec(V, 'get', COLLECTION, 200, collection.body);
    expect(collection.body.permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
    expect(await spaceAs(m.read, spaceId)).toEqual({
      view: true,
      access: true,
      admin: false,
      viewInviteLinks: false,
      edit: true,
      triggerGitSync: true,
      comment: true,
      merge: true,
      review: true,
      installIntegration: false,
    });
    // A weaker direct grant on the space does not lower it: the strongest role wins.
    await expectEmpty(api.post(`/v1/spaces/${spaceId}/permissions`, { role: 'comment', users: [m.read.id] }), 204);
    expect(await spaceAs(m.read, spaceId)).toMatchObject({ review: true, merge: true, admin: false });
    expect(await aggregate(api, 'space', spaceId)).toEqual(byRole(org, { admin: 'admin', read: 'review' }));
    expect(await spaceAs(m.comment, spaceId)).toBe(404);

    // The space's own default level opens it to every member with a role, whatever the collection says.
    await setDefaultLevel(api, 'space', spaceId, 'edit');
    for (const role of ['create', 'review', 'edit', 'comment'] as const) {
      expect({ role, permissions: await spaceAs(m[role], spaceId) }).toMatchObject({ role, permissions: { view: true, edit: true, admin: false } });
      // The collection stays closed to them.
      await expectError(as(m[role]).get(`/v1/collections/${collectionId}`), 404);
    }
    expect(await spaceAs(m.read, spaceId)).toMatchObject({ review: true });
    expect(await spaceAs(m.guest, spaceId)).toBe(404);
    expect(await spaceAs(m.admin, spaceId)).toMatchObject({ admin: true });
    expect(await aggregate(api, 'space', spaceId)).toEqual(byRole(org, { admin: 'admin', create: 'edit', review: 'edit', edit: 'edit', comment: 'edit', read: 'review' }));

    // Locked, the space refuses edits and merges whatever the role; reviews stay.
    expect((await api.patch(`/v1/spaces/${spaceId}`, { editMode: 'locked' })).status).toBe(200);
    expect(await spaceAs(m.read, spaceId)).toMatchObject({ review: true, merge: false, edit: false, triggerGitSync: false });
    expect(await spaceAs(m.admin, spaceId)).toMatchObject({ admin: true, edit: false, merge: false });
  });

  it('aggregates everyone with access and their effective role, filtered by role', async () => {
    const org = await contentOrg();
    const m = org.members;
    const api = as(m.admin);
    const spaceId = await createSpace(api, org.orgId);
    const everyone = byRole(org, { admin: 'admin', create: 'create', review: 'review', edit: 'edit', comment: 'comment', read: 'read' });
    expect(await aggregate(api, 'space', spaceId)).toEqual(everyone);
    // Any reader of the space may ask.
    expect(await aggregate(as(m.read), 'space', spaceId)).toEqual(everyone);

    // A guest granted comment appears with it; a grant above one's default raises it.
    await expectEmpty(api.post(`/v1/spaces/${spaceId}/permissions`, { role: 'comment', users: [m.guest.id] }), 204);
    await expectEmpty(api.post(`/v1/spaces/${spaceId}/permissions`, { role: 'review', users: [m.read.id] }), 204);
    const all = await aggregate(api, 'space', spaceId);
    expect(all).toEqual({ ...everyone, [m.guest.id]: 'comment', [m.read.id]: 'review' });

    const first = await api.get(`/v1/spaces/${spaceId}/permissions/aggregate`);
    assertMatchesSpec(V, 'get', `${SPACE}/permissions/aggregate`, 200, first.body);
    expect(first.body.count).toBe(7);
    expect(first.body.items.find((i: Grant) => i.user!.id === m.guest.id)).toEqual({
      permission: 'comment',
      user: expect.objectContaining({ object: 'user', id: m.guest.id, displayName: 'guest', email: m.guest.email }),
    });

    expect(await aggregate(api, 'space', spaceId, 'edit')).toEqual(byRole(org, { edit: 'edit' }));
    expect(await aggregate(api, 'space', spaceId, 'comment')).toEqual(byRole(org, { comment: 'comment', guest: 'comment' }));
    expect(await aggregate(api, 'space', spaceId, 'review')).toEqual(byRole(org, { review: 'review', read: 'review' }));
    expect(await aggregate(api, 'space', spaceId, 'read')).toEqual({});
    const filtered = await api.get(`/v1/spaces/${spaceId}/permissions/aggregate?role=review`);
    expect(filtered.body.count).toBe(2);
    expect(filtered.body.items).toHaveLength(2);
    await expectError(api.get(`/v1/spaces/${spaceId}/permissions/aggregate?role=guest`), 400);
    await expectError(api.get(`/v1/spaces/${spaceId}/permissions/aggregate?role=owner`), 400);

    // Restricted, the space keeps only the admins and the granted.
    await setDefaultLevel(api, 'space', spaceId, null);
    expect(await aggregate(api, 'space', spaceId)).toEqual(byRole(org, { admin: 'admin', guest: 'comment', read: 'review' }));
    await expectError(as(m.edit).get(`/v1/spaces/${spaceId}/permissions/aggregate`), 404);
  });

  it("lists a member's spaces with their effective role", async () => {
    const org = await contentOrg();
    const m = org.members;
    const api = as(m.admin);
    const open1 = await createSpace(api, org.orgId, { title: 'Open one' });
    const open2 = await createSpace(api, org.orgId, { title: 'Open two' });
    const restricted = await createSpace(api, org.orgId, { title: 'Restricted' });
    await setDefaultLevel(api, 'space', restricted, null);
    const closed = await createCollection(api, org.orgId, { title: 'Closed' });
    await setDefaultLevel(api, 'collection', closed, null);
    const inside = await createSpace(api, org.orgId, { title: 'Inside', parent: closed });

    const memberSpaces = async (client: Client, userId: string) => {
      const res = await client.get(`/v1/orgs/${org.orgId}/members/${userId}/spaces`);
      expect(res.status).toBe(200);
      assertMatchesSpec(V, 'get', MEMBER_SPACES, 200, res.body);
      expect(res.body.count).toBe(res.body.items.length);
      const items = res.body.items as Array<{ permission: string; space: { id: string; permissions: Record<string, boolean> } }>;
      return Object.fromEntries(items.map((i) => [i.space.id, [i.permission, i.space.permissions] as [string, Record<string, boolean>]]));
    };
    const roles = (spaces: Record<string, [string, unknown]>) => Object.fromEntries(Object.entries(spaces).map(([id, [role]]) => [id, role]));

    // The read member: the open spaces, with read; not the restricted ones.
    const readSpaces = await memberSpaces(api, m.read.id);
    expect(roles(readSpaces)).toEqual({ [open1]: 'read', [open2]: 'read' });
    // `permission` is the member's role; the space's `permissions` are the caller's (here the admin's).
    expect(readSpaces[open1][1]).toMatchObject({ view: true, edit: true, admin: true });
    const own = await memberSpaces(as(m.read), m.read.id);
    expect(roles(own)).toEqual({ [open1]: 'read', [open2]: 'read' });
    expect(own[open1][1]).toMatchObject({ view: true, edit: false, comment: false });
    expect(roles(await memberSpaces(api, m.edit.id))).toEqual({ [open1]: 'edit', [open2]: 'edit' });
    expect(roles(await memberSpaces(api, m.admin.id))).toEqual({ [open1]: 'admin', [open2]: 'admin', [restricted]: 'admin', [inside]: 'admin' });
    expect(await memberSpaces(api, m.guest.id)).toEqual({});
    expect(await memberSpaces(as(m.guest), m.guest.id)).toEqual({});

    // Granted, the restricted spaces appear with the granted role.
    await expectEmpty(api.post(`/v1/spaces/${restricted}/permissions`, { role: 'edit', users: [m.read.id] }), 204);
    await expectEmpty(api.post(`/v1/collections/${closed}/permissions`, { role: 'comment', users: [m.read.id, m.guest.id] }), 204);
    const after = await memberSpaces(api, m.read.id);
    expect(roles(after)).toEqual({ [open1]: 'read', [open2]: 'read', [restricted]: 'edit', [inside]: 'comment' });
    expect((await memberSpaces(as(m.read), m.read.id))[restricted][1]).toMatchObject({ view: true, edit: true, review: false, admin: false });
    // Asked by another member, a member's list shows only the spaces the caller can see too.
    expect(roles(await memberSpaces(as(m.edit), m.read.id))).toEqual({ [open1]: 'read', [open2]: 'read' });
    expect(roles(await memberSpaces(as(m.guest), m.guest.id))).toEqual({ [inside]: 'comment' });

    // Pages, newest first by default; order=asc reverses. (Created one after the other, each in its own request.)
    type Item = { space: { id: string; createdAt: string } };
    const newestFirst = await walk<Item>(api, `/v1/orgs/${org.orgId}/members/${m.read.id}/spaces`, 1, (b) => expect(b.count).toBe(4));
    const created = newestFirst.map((i) => i.space.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    expect(newestFirst.map((i) => i.space.id)).toEqual([inside, restricted, open2, open1]);
    const oldestFirst = await walk<Item>(api, `/v1/orgs/${org.orgId}/members/${m.read.id}/spaces?order=asc`, 3);
    expect(oldestFirst.map((i) => i.space.id)).toEqual([open1, open2, restricted, inside]);

    // Not a member: 404; a guest asking about someone else: 403 (as for the member).
    await expectError(api.get(`/v1/orgs/${org.orgId}/members/${org.stranger.id}/spaces`), 404);
    await expectError(as(org.stranger).get(`/v1/orgs/${org.orgId}/members/${m.read.id}/spaces`), 404);
    await expectError(as(m.guest).get(`/v1/orgs/${org.orgId}/members/${m.read.id}/spaces`), 403);
  });

  it('takes everything from a removed member, and does not give their grants back when they are invited again', async () => {
    const org = await contentOrg();
    const m = org.members;
    const api = as(m.admin);
    const open = await createSpace(api, org.orgId, { title: 'Open' });
    const restricted = await createSpace(api, org.orgId, { title: 'Restricted' });
    await setDefaultLevel(api, 'space', restricted, null);
    const collectionId = await createCollection(api, org.orgId);
    await expectEmpty(api.post(`/v1/spaces/${restricted}/permissions`, { role: 'edit', users: [m.read.id] }), 204);
    await expectEmpty(api.post(`/v1/collections/${collectionId}/permissions`, { role: 'admin', users: [m.read.id] }), 204);
    expect(await spaceAs(m.read, restricted)).toMatchObject({ edit: true });
    expect(await spaceAs(m.read, open)).toMatchObject({ view: true });

    await expectEmpty(api.delete(`/v1/orgs/${org.orgId}/members/${m.read.id}`), 204);
    const reader = as(m.read);
    // A removal is a revoked right: it ends within a bound, not at once.
    await eventually(
      async () => {
        expect(await spaceAs(m.read, open)).toBe(404);
        expect(await spaceAs(m.read, restricted)).toBe(404);
        expect((await reader.get(`/v1/collections/${collectionId}`)).status).toBe(404);
        expect((await reader.get(`/v1/orgs/${org.orgId}/spaces`)).status).toBe(404);
        expect((await reader.get(`/v1/orgs/${org.orgId}/collections`)).status).toBe(404);
      },
      10000,
      20,
    );
    await expectError(reader.get(`/v1/spaces/${open}/permissions/users`), 404);
    // Content's consumer of identity.member.removed withdraws the grants of a member who left (an
    // event, so not at once; the count is content's, whoever the caller may still see).
    await eventually(async () => {
      expect((await api.get(`/v1/spaces/${restricted}/permissions/users`)).body).toEqual({ items: [], count: 0 });
      expect((await api.get(`/v1/collections/${collectionId}/permissions/users`)).body).toEqual({ items: [], count: 0 });
    });
    expect(await aggregate(api, 'space', open)).not.toHaveProperty(m.read.id);

    // Invited back, they have their organization role again, and no more.
    const back = await api.post(`/v1/orgs/${org.orgId}/invites`, { emails: [{ email: m.read.email, role: 'read' }] });
    expect(back.status).toBe(200);
    expect(await spaceAs(m.read, open)).toMatchObject({ view: true, edit: false });
    expect(await spaceAs(m.read, restricted)).toBe(404);
    const collection = await reader.get(`/v1/collections/${collectionId}`);
    expect(collection.status).toBe(200);
    expect(collection.body.permissions).toMatchObject({ admin: false, create: false });
    expect(await grants(api, 'space', restricted, 'users')).toEqual([]);
    // A grant given after they came back stays.
    await expectEmpty(api.post(`/v1/spaces/${restricted}/permissions`, { role: 'comment', users: [m.read.id] }), 204);
    expect(await spaceAs(m.read, restricted)).toMatchObject({ comment: true, edit: false });
  });

  it("manages a collection's permissions: users, teams, aggregate, and what reaches the spaces inside", async () => {
    const org = await contentOrg();
    const m = org.members;
    const api = as(m.admin);
    const collectionId = await createCollection(api, org.orgId, { title: 'Shared' });
    const spaceId = await createSpace(api, org.orgId, { parent: collectionId });
    const path = `/v1/collections/${collectionId}/permissions`;

    await expectEmpty(api.post(path, { role: 'create', users: [m.read.id, m.guest.id] }), 204);
    const list = await api.get(`${path}/users`);
    assertMatchesSpec(V, 'get', `${COLLECTION}/permissions/users`, 200, list.body);
    expect(list.body.count).toBe(2);
    expect(list.body.items.find((i: Grant) => i.user!.id === m.read.id)).toEqual({
      permission: 'create',
      user: expect.objectContaining({ id: m.read.id, displayName: 'read', email: m.read.email }),
    });
    const collection = await as(m.guest).get(`/v1/collections/${collectionId}`);
    assertMatchesSpec(V, 'get', COLLECTION, 200, collection.body);
    expect(collection.body.permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: true });
    // With create on the collection, the guest may create a space in it.
    expect((await as(m.guest).post(`/v1/orgs/${org.orgId}/spaces`, { title: 'By the guest', parent: collectionId })).status).toBe(201);
    expect(await spaceAs(m.guest, spaceId)).toMatchObject({ review: true, admin: false });

    // Update: admin on the collection makes the read member an admin of everything inside.
    await expectEmpty(api.patch(`${path}/users/${m.read.id}`, { role: 'admin' }), 204);
    expect(await grants(api, 'collection', collectionId, 'users')).toEqual(
      [
        [m.read.id, 'admin'],
        [m.guest.id, 'create'],
      ].sort((a, b) => (a[0] < b[0] ? -1 : 1)),
    );
    expect(await spaceAs(m.read, spaceId)).toMatchObject({ admin: true });
    await expectEmpty(as(m.read).patch(`${path}/users/${m.guest.id}`, { role: 'comment' }), 204);
    await expectError(as(m.edit).patch(`${path}/users/${m.guest.id}`, { role: 'admin' }), 403);
    await expectError(api.patch(`${path}/users/${m.edit.id}`, { role: 'admin' }), 404);
    await expectError(api.post(path, { role: 'read', users: [org.stranger.id] }), 400, org.stranger.id);

    const everyone = await aggregate(api, 'collection', collectionId);
    expect(everyone).toEqual(byRole(org, { admin: 'admin', create: 'create', review: 'review', edit: 'edit', comment: 'comment', read: 'admin', guest: 'comment' }));
    expect(await aggregate(api, 'collection', collectionId, 'comment')).toEqual(byRole(org, { comment: 'comment', guest: 'comment' }));
    expect(await aggregate(api, 'collection', collectionId, 'admin')).toEqual(byRole(org, { admin: 'admin', read: 'admin' }));

    // Teams.
    const teamId = await createTeam(api, org.orgId, 'Reviewers', [m.comment.id]);
    expect((await api.post(path, { role: 'review', teams: [teamId] })).status).toBe(204);
    const teams = await api.get(`${path}/teams`);
    assertMatchesSpec(V, 'get', `${COLLECTION}/permissions/teams`, 200, teams.body);
    expect(teams.body).toMatchObject({ count: 1, items: [{ permission: 'review', team: { id: teamId, title: 'Reviewers' } }] });
    expect((await aggregate(api, 'collection', collectionId))[m.comment.id]).toBe('review');
    expect(await spaceAs(m.comment, spaceId)).toMatchObject({ review: true });
    await expectEmpty(api.patch(`${path}/teams/${teamId}`, { role: 'edit' }), 204);
    expect(await grants(api, 'collection', collectionId, 'teams')).toEqual([[teamId, 'edit']]);
    await expectEmpty(api.delete(`${path}/teams/${teamId}`), 205);
    await expectEmpty(api.delete(`${path}/teams/${teamId}`), 204);
    expect((await aggregate(api, 'collection', collectionId))[m.comment.id]).toBe('comment');

    // Remove: 205, then 204; the space inside follows.
    await expectEmpty(api.delete(`${path}/users/${m.read.id}`), 205);
    await expectEmpty(api.delete(`${path}/users/${m.read.id}`), 204);
    expect(await spaceAs(m.read, spaceId)).toMatchObject({ view: true, admin: false, comment: false });
    await expectEmpty(api.post(path, { role: null, users: [m.guest.id] }), 204);
    expect(await grants(api, 'collection', collectionId, 'users')).toEqual([]);
    expect(await spaceAs(m.guest, spaceId)).toBe(404);
    await expectError(as(m.guest).get(`/v1/collections/${collectionId}`), 404);
    await expectError(as(m.guest).get(`${path}/aggregate`), 404);
  });
});
