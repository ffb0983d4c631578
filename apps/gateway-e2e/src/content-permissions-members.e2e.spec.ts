import { assertMatchesSpec, eventually, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { contentPermissionHelpers, COLLECTION, Grant, MEMBER_SPACES, SPACE, V } from './content-permission-fixtures';
import { Client, walk } from './http-client';
import { createTeam } from './team-fixtures';

// Everyone's effective role, a member's spaces, a removed member, and a collection's permissions.
describe("content permissions through the gateway: everyone's access", () => {
  let sut: SystemUnderTest;

  beforeAll(async () => {
    sut = await sharedSystem();
  });

  const { as, contentOrg, createSpace, createCollection, setDefaultLevel, expectEmpty, expectError, grants, aggregate, spaceAs, byRole } = contentPermissionHelpers(() => sut);

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
