import { assertMatchesSpec, eventually, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { contentPermissionHelpers, COLLECTION, Grant, SPACE, V } from './content-permission-fixtures';
import { http } from './http-client';
import { createTeam } from './team-fixtures';

// Grants to users and teams of a space, who may manage them, and roles inherited through a collection.
describe('content permissions through the gateway', () => {
  let sut: SystemUnderTest;

  beforeAll(async () => {
    sut = await sharedSystem();
  });

  const { as, contentOrg, createSpace, createCollection, setDefaultLevel, expectEmpty, expectError, grants, aggregate, spaceAs, byRole } = contentPermissionHelpers(() => sut);

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
});
