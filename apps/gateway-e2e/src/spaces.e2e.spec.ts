import { GitBookAPI } from '@gitbook/api';
import { assertErrorBody, assertMatchesSpec, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createOrganization, createUser, TestUser } from './fixtures';
import { Client, http, HttpResult } from './http-client';

const SPACES = '/orgs/{organizationId}/spaces';
const SPACE = '/spaces/{spaceId}';
const ALL_TRUE = {
  view: true,
  access: true,
  admin: true,
  viewInviteLinks: true,
  edit: true,
  triggerGitSync: true,
  comment: true,
  merge: true,
  review: true,
  installIntegration: true,
};

/** A parsed answer body. */
type Json = HttpResult['body'];

/** Asserts a failure: its status and the error body, with a message containing `message` when given. */
function expectError(res: HttpResult, status: number, message?: string): void {
  expect({ status: res.status, body: res.body }).toMatchObject({ status });
  assertErrorBody(status, res.body);
  if (message) expect(res.body.error.message).toContain(message);
}

describe('spaces through the gateway', () => {
  let sut: SystemUnderTest;
  let ada: TestUser;
  let api: Client;

  /** A new organization of ada's: content answers for it on the next request. */
  const organization = (title = 'Spaces org'): Promise<string> => createOrganization(sut, ada, title);

  async function createSpace(orgId: string, body: Record<string, unknown> = {}): Promise<Json> {
    const res = await api.post(`/v1/orgs/${orgId}/spaces`, body);
    expect({ status: res.status, body: res.status === 201 ? undefined : res.body }).toEqual({ status: 201, body: undefined });
    assertMatchesSpec('0.130.0', 'post', SPACES, 201, res.body);
    return res.body;
  }

  async function createCollection(orgId: string, title: string, parent?: string): Promise<string> {
    const res = await api.post(`/v1/orgs/${orgId}/collections`, { title, ...(parent ? { parent } : {}) });
    expect({ status: res.status, body: res.status === 201 ? undefined : res.body }).toEqual({ status: 201, body: undefined });
    return res.body.id;
  }

  async function listIds(orgId: string): Promise<string[]> {
    const res = await api.get(`/v1/orgs/${orgId}/spaces?limit=1000`);
    expect(res.status).toBe(200);
    assertMatchesSpec('0.130.0', 'get', SPACES, 200, res.body);
    return res.body.items.map((s: { id: string }) => s.id);
  }

  /** The ids of a collection's spaces, in their order. */
  async function spacesIn(collectionId: string): Promise<string[]> {
    const res = await api.get(`/v1/collections/${collectionId}/spaces`);
    expect(res.status).toBe(200);
    assertMatchesSpec('0.130.0', 'get', '/collections/{collectionId}/spaces', 200, res.body);
    return res.body.items.map((s: { id: string }) => s.id);
  }

  async function move(spaceId: string, body: unknown): Promise<HttpResult> {
    const res = await api.post(`/v1/spaces/${spaceId}/move`, body);
    if (res.status === 200) assertMatchesSpec('0.130.0', 'post', `${SPACE}/move`, 200, res.body);
    return res;
  }

  beforeAll(async () => {
    sut = await sharedSystem();
    ada = await createUser(sut, 'ada', 'spaces.test');
    api = http(sut.baseUrl, ada.token);
  });

  it('creates a space with its defaults, lists it and gets it', async () => {
    const orgId = await organization();
    const res = await api.post(`/v1/orgs/${orgId}/spaces`, { title: 'Handbook', emoji: '📘' });
    expect(res.status).toBe(201);
    assertMatchesSpec('0.130.0', 'post', SPACES, 201, res.body);
    const space = res.body;
    expect(space).toMatchObject({
      object: 'space',
      title: 'Handbook',
      emoji: '📘',
      organization: orgId,
      visibility: 'private',
      defaultLevel: 'inherit',
      editMode: 'live',
      permissions: ALL_TRUE,
    });
    expect(Object.values(space.permissions).every((v) => v === true)).toBe(true);
    expect(typeof space.revision).toBe('string');
    expect(space.revision.length).toBeGreaterThan(0);
    expect(space.parent).toBeUndefined();
    expect(space.deletedAt).toBeUndefined();
    expect(res.headers.get('location')).toBe(space.urls.location);
    expect(space.urls.location).toMatch(new RegExp(`/v1/spaces/${space.id}$`));

    // With no body: an untitled, live space; locked: no one edits or merges it.
    const untitled = await createSpace(orgId);
    expect(untitled).toMatchObject({ title: 'Untitled', emoji: '', editMode: 'live', defaultLevel: 'inherit' });
    const locked = await createSpace(orgId, { title: 'Frozen', editMode: 'locked', empty: true });
    expect(locked.permissions).toEqual({ ...ALL_TRUE, edit: false, triggerGitSync: false, merge: false });
    expect(new Set([space.revision, untitled.revision, locked.revision]).size).toBe(3);

    const list = await api.get(`/v1/orgs/${orgId}/spaces`);
    expect(list.status).toBe(200);
    assertMatchesSpec('0.130.0', 'get', SPACES, 200, list.body);
    expect(list.body.count).toBe(3);
    expect(list.body.items.map((s: { id: string }) => s.id)).toEqual([space.id, untitled.id, locked.id]);
    expect(list.body.items[0]).toEqual(space);

    const got = await api.get(`/v1/spaces/${space.id}`);
    expect(got.status).toBe(200);
    assertMatchesSpec('0.130.0', 'get', SPACE, 200, got.body);
    expect(got.body).toEqual(space);
    const shared = await api.get(`/v1/spaces/${space.id}?shareKey=x`);
    expect(shared.status).toBe(200);
    assertMatchesSpec('0.130.0', 'get', SPACE, 200, shared.body);
    expect(shared.body).toEqual(space);

    expectError(await api.get('/v1/spaces/does-not-exist'), 404);
    expectError(await api.post(`/v1/orgs/${orgId}/spaces`, { title: 'x'.repeat(51) }), 400, 'title');
    expectError(await api.post(`/v1/orgs/${orgId}/spaces`, { editMode: 'frozen' }), 400, 'editMode');
    expectError(await api.post(`/v1/orgs/${orgId}/spaces`, { parent: 'no-such-collection' }), 400, 'parent');
    expect(await listIds(orgId)).toEqual([space.id, untitled.id, locked.id]);
  });

  it('changes each field with PATCH', async () => {
    const orgId = await organization();
    const space = await createSpace(orgId, { title: 'Draft', emoji: '📘' });
    const patch = async (body: Record<string, unknown>) => {
      const res = await api.patch(`/v1/spaces/${space.id}`, body);
      expect({ body, status: res.status, answer: res.status === 200 ? undefined : res.body }).toEqual({ body, status: 200, answer: undefined });
      assertMatchesSpec('0.130.0', 'patch', SPACE, 200, res.body);
      expect(res.body).toMatchObject({ id: space.id, organization: orgId, revision: space.revision, createdAt: space.createdAt });
      const got = await api.get(`/v1/spaces/${space.id}`);
      expect(got.body).toEqual(res.body);
      return res.body;
    };

    expect(await patch({ title: 'Final' })).toMatchObject({ title: 'Final', emoji: '📘' });
    expect(await patch({ emoji: '📗' })).toMatchObject({ title: 'Final', emoji: '📗' });
    const withIcon = await patch({ icon: 'https://example.com/icon.png' });
    expect(withIcon.emoji).toBe('');
    expect(withIcon.urls.icon).toBe('https://example.com/icon.png');
    // Removing the emoji (there is none now) leaves the icon.
    const noEmoji = await patch({ emoji: null });
    expect(noEmoji.emoji).toBe('');
    expect(noEmoji.urls.icon).toBe('https://example.com/icon.png');
    // Setting an emoji replaces the icon.
    const withEmoji = await patch({ emoji: '📙', icon: null });
    expect(withEmoji.emoji).toBe('📙');
    expect(withEmoji.urls.icon).toBeUndefined();
    expect((await patch({ icon: 'https://example.com/other.png' })).urls.icon).toBe('https://example.com/other.png');
    const removed = await patch({ icon: null });
    expect(removed.urls.icon).toBeUndefined();
    expect((await patch({ emoji: '📕' })).emoji).toBe('📕');
    expect((await patch({ emoji: null })).emoji).toBe('');

    for (const level of ['read', 'comment', 'edit', 'review', 'create', 'admin', null, 'inherit']) {
      const updated = await patch({ defaultLevel: level });
      expect(updated.defaultLevel).toBe(level);
      // The creator is an organization admin: admin whatever the default level.
      expect(updated.permissions).toEqual(ALL_TRUE);
    }

    const locked = await patch({ editMode: 'locked' });
    expect(locked.editMode).toBe('locked');
    expect(locked.permissions).toEqual({ ...ALL_TRUE, edit: false, triggerGitSync: false, merge: false });
    expect((await patch({ editMode: 'live' })).permissions).toEqual(ALL_TRUE);

    const all = await patch({ title: 'Everything', emoji: '📓', defaultLevel: 'read', editMode: 'locked' });
    expect(all).toMatchObject({ title: 'Everything', emoji: '📓', defaultLevel: 'read', editMode: 'locked' });
    expect(Date.parse(all.updatedAt)).toBeGreaterThanOrEqual(Date.parse(space.updatedAt));
  });

  it('refuses a bad PATCH with a 400 naming the field, and changes nothing', async () => {
    const orgId = await organization();
    const space = await createSpace(orgId, { title: 'Stable', emoji: '📘' });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ owner: 'me' }, 'owner'],
      [{ title: 'Changed', owner: 'me' }, 'owner'],
      [{ id: 'another-id' }, 'id'],
      [{ title: 'Changed', revision: 'r1' }, 'revision'],
      [{ visibility: 'public' }, 'visibility'],
      [{ organization: 'elsewhere' }, 'organization'],
      [{ title: 'x'.repeat(51) }, 'title'],
      [{ title: 42 }, 'title'],
      [{ emoji: '📗', icon: 'https://example.com/icon.png' }, 'icon'],
      [{ icon: 'not a url' }, 'icon'],
      [{ editMode: 'frozen' }, 'editMode'],
      [{ title: 'Changed', editMode: 'frozen' }, 'editMode'],
      [{ defaultLevel: 'owner' }, 'defaultLevel'],
    ];
    for (const [body, field] of cases) {
      const res = await api.patch(`/v1/spaces/${space.id}`, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      assertErrorBody(400, res.body);
      expect({ body, message: res.body.error.message }).toEqual({ body, message: expect.stringContaining(field) });
    }
    const got = await api.get(`/v1/spaces/${space.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(space);
    expectError(await api.patch('/v1/spaces/does-not-exist', { title: 'Nope' }), 404);
  });

  it('deletes (205, then 204) and restores a space', async () => {
    const orgId = await organization();
    const keep = await createSpace(orgId, { title: 'Keep' });
    const space = await createSpace(orgId, { title: 'Bin me', emoji: '🗑' });
    expect(await listIds(orgId)).toEqual([keep.id, space.id]);

    const deleted = await api.delete(`/v1/spaces/${space.id}`);
    expect(deleted.status).toBe(205);
    expect(deleted.body).toBeUndefined();
    const again = await api.delete(`/v1/spaces/${space.id}`);
    expect(again.status).toBe(204);
    expect(again.body).toBeUndefined();
    expectError(await api.get(`/v1/spaces/${space.id}`), 404);
    expectError(await api.patch(`/v1/spaces/${space.id}`, { title: 'Ghost' }), 404);
    expect(await listIds(orgId)).toEqual([keep.id]);
    expect((await api.get(`/v1/orgs/${orgId}/spaces`)).body.count).toBe(1);

    const restored = await api.post(`/v1/spaces/${space.id}/restore`);
    expect(restored.status).toBe(200);
    assertMatchesSpec('0.130.0', 'post', `${SPACE}/restore`, 200, restored.body);
    expect(restored.body).toMatchObject({ id: space.id, title: 'Bin me', emoji: '🗑', revision: space.revision, organization: orgId, permissions: ALL_TRUE });
    expect(restored.body.deletedAt).toBeUndefined();
    expect((await api.get(`/v1/spaces/${space.id}`)).body).toEqual(restored.body);
    expect(await listIds(orgId)).toEqual([keep.id, space.id]);

    // A live space is not restored.
    expectError(await api.post(`/v1/spaces/${space.id}/restore`), 400);
    expectError(await api.post(`/v1/spaces/${keep.id}/restore`), 400);
    expectError(await api.post('/v1/spaces/does-not-exist/restore'), 404);
    // 204 is for a space that was deleted; one that never existed is as invisible as any other (404).
    expectError(await api.delete('/v1/spaces/does-not-exist'), 404);
  });

  it('duplicates a space next to it, with the same settings', async () => {
    const orgId = await organization();
    const collectionId = await createCollection(orgId, 'Shelf');
    const space = await createSpace(orgId, { title: 'Original', emoji: '📘', parent: collectionId, editMode: 'locked' });
    const patched = await api.patch(`/v1/spaces/${space.id}`, { defaultLevel: 'comment' });
    expect(patched.status).toBe(200);

    const res = await api.post(`/v1/spaces/${space.id}/duplicate`);
    expect(res.status).toBe(201);
    assertMatchesSpec('0.130.0', 'post', `${SPACE}/duplicate`, 201, res.body);
    const copy = res.body;
    expect(copy.id).not.toBe(space.id);
    expect(copy.revision).not.toBe(space.revision);
    expect(copy).toMatchObject({
      object: 'space',
      title: 'Original',
      emoji: '📘',
      editMode: 'locked',
      defaultLevel: 'comment',
      parent: collectionId,
      organization: orgId,
      visibility: 'private',
    });
    expect(res.headers.get('location')).toBe(copy.urls.location);
    expect((await api.get(`/v1/spaces/${copy.id}`)).body).toEqual(copy);
    // The original is untouched; the copy comes after it.
    expect((await api.get(`/v1/spaces/${space.id}`)).body).toEqual(patched.body);
    expect(await spacesIn(collectionId)).toEqual([space.id, copy.id]);

    // At the top level too.
    const top = await createSpace(orgId, { title: 'Top', emoji: '📗' });
    const topCopy = await api.post(`/v1/spaces/${top.id}/duplicate`);
    expect(topCopy.status).toBe(201);
    expect(topCopy.body).toMatchObject({ title: 'Top', emoji: '📗', editMode: 'live', defaultLevel: 'inherit' });
    expect(topCopy.body.parent).toBeUndefined();
    expectError(await api.post('/v1/spaces/does-not-exist/duplicate'), 404);
  });

  it('moves a space into a collection, among its siblings, and back to the top level', async () => {
    const orgId = await organization();
    const shelf = await createCollection(orgId, 'Shelf');
    const other = await createCollection(orgId, 'Other');
    const x = (await createSpace(orgId, { title: 'x', parent: shelf })).id;
    const y = (await createSpace(orgId, { title: 'y', parent: shelf })).id;
    const s = (await createSpace(orgId, { title: 's' })).id;
    const t = (await createSpace(orgId, { title: 't' })).id;
    const pointer = (space: string) => ({ type: 'space', space });
    expect(await spacesIn(shelf)).toEqual([x, y]);

    // Into the collection: at the end by default.
    let res = await move(s, { parent: shelf });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: s, parent: shelf, organization: orgId });
    expect((await api.get(`/v1/spaces/${s}`)).body.parent).toBe(shelf);
    expect(await spacesIn(shelf)).toEqual([x, y, s]);

    // Among its siblings: before, after, both.
    expect((await move(s, { position: { before: pointer(x) } })).status).toBe(200);
    expect(await spacesIn(shelf)).toEqual([s, x, y]);
    expect((await move(s, { position: { after: pointer(x) } })).status).toBe(200);
    expect(await spacesIn(shelf)).toEqual([x, s, y]);
    expect((await move(y, { parent: shelf, position: { after: pointer(x), before: pointer(s) } })).status).toBe(200);
    expect(await spacesIn(shelf)).toEqual([x, y, s]);
    // A collection as a neighbour.
    expect((await move(t, { parent: null, position: { before: { type: 'collection', collection: other } } })).status).toBe(200);

    // A move that changes nothing.
    expectError(await move(s, { parent: shelf }), 409);
    expectError(await move(y, { position: { after: pointer(x) } }), 409);
    expectError(await move(y, { position: { after: pointer(x), before: pointer(s) } }), 409);
    expectError(await move(x, { position: { before: pointer(y) } }), 409);

    // Bad positions and bodies.
    expectError(await move(x, { position: { after: pointer(s), before: pointer(y) } }), 400, 'next to each other');
    expectError(await move(s, { position: { before: pointer(t) } }), 400, 'position.before');
    expectError(await move(s, { position: { after: { type: 'collection', collection: other } } }), 400, 'position.after');
    expectError(await move(s, { parent: other, position: { before: pointer(x) } }), 400, 'position.before');
    expectError(await move(s, { position: { before: pointer(s) } }), 400, 'position.before');
    expectError(await move(s, {}), 400);
    expectError(await move(s, { parent: 'no-such-collection' }), 400, 'parent');
    expectError(await move(s, { position: { before: { type: 'page', page: x } } }), 400, 'position');
    expectError(await move(s, { where: 'up' }), 400, 'where');
    expect(await spacesIn(shelf)).toEqual([x, y, s]);

    // Back to the top level (parent null): it is no longer in the collection.
    res = await move(s, { parent: null });
    expect(res.status).toBe(200);
    expect(res.body.parent).toBeUndefined();
    expect((await api.get(`/v1/spaces/${s}`)).body.parent).toBeUndefined();
    expect(await spacesIn(shelf)).toEqual([x, y]);
    // It went to the end of the top level: moving it there again changes nothing.
    expectError(await move(s, { parent: null }), 409);
    // Into the other collection, then before one of its spaces.
    expect((await move(x, { parent: other })).status).toBe(200);
    expect((await move(s, { parent: other, position: { before: pointer(x) } })).status).toBe(200);
    expect(await spacesIn(other)).toEqual([s, x]);
    expect(await spacesIn(shelf)).toEqual([y]);
    expectError(await move('does-not-exist', { parent: null }), 404);
  });

  it('transfers a space to another organization where the caller is an admin', async () => {
    const orgId = await organization('From');
    const target = await organization('To');
    const shelf = await createCollection(orgId, 'Shelf');
    const space = await createSpace(orgId, { title: 'Travelling', emoji: '🧳', parent: shelf });
    const stays = await createSpace(orgId, { title: 'Staying' });

    const res = await api.post(`/v1/spaces/${space.id}/transfer`, { organization: target });
    expect(res.status).toBe(200);
    assertMatchesSpec('0.130.0', 'post', `${SPACE}/transfer`, 200, res.body);
    expect(res.body).toMatchObject({ id: space.id, title: 'Travelling', emoji: '🧳', revision: space.revision, organization: target, permissions: ALL_TRUE });
    // It lands at the target's top level.
    expect(res.body.parent).toBeUndefined();
    expect((await api.get(`/v1/spaces/${space.id}`)).body).toEqual(res.body);
    expect(await listIds(target)).toEqual([space.id]);
    expect(await listIds(orgId)).toEqual([stays.id]);
    expect(await spacesIn(shelf)).toEqual([]);

    // Already in that organization.
    expectError(await api.post(`/v1/spaces/${space.id}/transfer`, { organization: target }), 412);
    expectError(await api.post(`/v1/spaces/${stays.id}/transfer`, { organization: orgId }), 412);
    // An organization the caller is not a member of, or none at all.
    const eve = await createUser(sut, 'eve', 'spaces.test');
    const elsewhere = await createOrganization(sut, eve, 'Elsewhere');
    expectError(await api.post(`/v1/spaces/${stays.id}/transfer`, { organization: elsewhere }), 404);
    expectError(await api.post(`/v1/spaces/${stays.id}/transfer`, { organization: 'no-such-org' }), 404);
    expectError(await api.post(`/v1/spaces/${stays.id}/transfer`, {}), 400, 'organization');
    // Moving is within one organization: a collection of another one is no parent.
    const theirs = await createCollection(target, 'Theirs');
    expectError(await move(stays.id, { parent: theirs }), 400, 'parent');
    expect((await api.get(`/v1/spaces/${stays.id}`)).body.organization).toBe(orgId);
  });

  it('works with the official client', async () => {
    const orgId = await organization('Client');
    const target = await organization('Client target');
    const client = new GitBookAPI({ endpoint: sut.baseUrl, authToken: ada.token });

    const created = await client.orgs.createSpace(orgId, { title: 'From the client', emoji: '📘' });
    expect(created.status).toBe(201);
    assertMatchesSpec('0.130.0', 'post', SPACES, 201, created.data);
    const id = created.data.id;

    const got = await client.spaces.getSpaceById(id);
    assertMatchesSpec('0.130.0', 'get', SPACE, 200, got.data);
    expect(got.data).toEqual(created.data);
    expect((await client.spaces.getSpaceById(id, { shareKey: 'x' })).data).toEqual(created.data);

    const updated = await client.spaces.updateSpaceById(id, { title: 'Renamed by the client', emoji: '📗' });
    assertMatchesSpec('0.130.0', 'patch', SPACE, 200, updated.data);
    expect(updated.data).toMatchObject({ id, title: 'Renamed by the client', emoji: '📗' });

    const list = await client.orgs.listSpacesInOrganizationById(orgId);
    assertMatchesSpec('0.130.0', 'get', SPACES, 200, list.data);
    expect(list.data.items.map((s) => s.id)).toEqual([id]);

    const copy = await client.spaces.duplicateSpace(id);
    expect(copy.status).toBe(201);
    expect(copy.data).toMatchObject({ title: 'Renamed by the client', emoji: '📗' });

    const collection = await client.orgs.createCollection(orgId, { title: 'Client shelf' });
    const moved = await client.spaces.moveSpace(copy.data.id, { parent: collection.data.id });
    assertMatchesSpec('0.130.0', 'post', `${SPACE}/move`, 200, moved.data);
    expect(moved.data.parent).toBe(collection.data.id);
    await expect(client.spaces.moveSpace(copy.data.id, { parent: collection.data.id })).rejects.toMatchObject({ code: 409 });

    expect((await client.spaces.deleteSpaceById(copy.data.id)).status).toBe(205);
    await expect(client.spaces.getSpaceById(copy.data.id)).rejects.toMatchObject({ code: 404 });
    const restored = await client.spaces.restoreSpace(copy.data.id);
    assertMatchesSpec('0.130.0', 'post', `${SPACE}/restore`, 200, restored.data);
    expect(restored.data.parent).toBe(collection.data.id);

    const transferred = await client.spaces.transferSpace(id, { organization: target });
    assertMatchesSpec('0.130.0', 'post', `${SPACE}/transfer`, 200, transferred.data);
    expect(transferred.data.organization).toBe(target);
    await expect(client.spaces.transferSpace(id, { organization: target })).rejects.toMatchObject({ code: 412 });
    await expect(client.spaces.getSpaceById('does-not-exist')).rejects.toMatchObject({ code: 404 });
  });
});
