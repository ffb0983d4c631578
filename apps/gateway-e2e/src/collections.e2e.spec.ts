import { GitBookAPI } from '@gitbook/api';
import { assertErrorBody, assertMatchesSpec, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createOrganization, createUser, TestUser } from './fixtures';
import { Client, http, HttpResult } from './http-client';

const COLLECTIONS = '/orgs/{organizationId}/collections';
const COLLECTION = '/collections/{collectionId}';
const ADMIN = { view: true, admin: true, viewInviteLinks: true, create: true };

/** A parsed answer body. */
type Json = HttpResult['body'];

/** Asserts a failure: its status and the error body, with a message containing `message` when given. */
function expectError(res: HttpResult, status: number, message?: string): void {
  expect({ status: res.status, body: res.body }).toMatchObject({ status });
  assertErrorBody(status, res.body);
  if (message) expect(res.body.error.message).toContain(message);
}

describe('collections through the gateway', () => {
  let sut: SystemUnderTest;
  let ada: TestUser;
  let api: Client;

  /** A new organization of ada's: content answers for it on the next request. */
  const organization = (title = 'Collections org'): Promise<string> => createOrganization(sut, ada, title);

  async function createCollection(orgId: string, title: string, parent?: string): Promise<Json> {
    const res = await api.post(`/v1/orgs/${orgId}/collections`, { title, ...(parent ? { parent } : {}) });
    expect({ status: res.status, body: res.status === 201 ? undefined : res.body }).toEqual({ status: 201, body: undefined });
    assertMatchesSpec('0.130.0', 'post', COLLECTIONS, 201, res.body);
    expect(res.headers.get('location')).toBe(res.body.urls.location);
    return res.body;
  }

  async function createSpace(orgId: string, title: string, parent?: string): Promise<string> {
    const res = await api.post(`/v1/orgs/${orgId}/spaces`, { title, ...(parent ? { parent } : {}) });
    expect({ status: res.status, body: res.status === 201 ? undefined : res.body }).toEqual({ status: 201, body: undefined });
    return res.body.id;
  }

  async function getCollection(id: string): Promise<Json> {
    const res = await api.get(`/v1/collections/${id}`);
    expect({ id, status: res.status }).toEqual({ id, status: 200 });
    assertMatchesSpec('0.130.0', 'get', COLLECTION, 200, res.body);
    return res.body;
  }

  async function getSpace(id: string): Promise<Json> {
    const res = await api.get(`/v1/spaces/${id}`);
    expect({ id, status: res.status }).toEqual({ id, status: 200 });
    return res.body;
  }

  async function collectionIds(orgId: string, query = ''): Promise<string[]> {
    const res = await api.get(`/v1/orgs/${orgId}/collections${query}`);
    expect(res.status).toBe(200);
    assertMatchesSpec('0.130.0', 'get', COLLECTIONS, 200, res.body);
    expect(res.body.count).toBe(res.body.items.length);
    return res.body.items.map((c: { id: string }) => c.id);
  }

  async function spaceIds(orgId: string): Promise<string[]> {
    const res = await api.get(`/v1/orgs/${orgId}/spaces?limit=1000`);
    expect(res.status).toBe(200);
    return res.body.items.map((s: { id: string }) => s.id);
  }

  /** The ids of a collection's spaces, in their order. */
  async function spacesIn(collectionId: string): Promise<string[]> {
    const res = await api.get(`/v1/collections/${collectionId}/spaces`);
    expect({ collectionId, status: res.status }).toEqual({ collectionId, status: 200 });
    assertMatchesSpec('0.130.0', 'get', `${COLLECTION}/spaces`, 200, res.body);
    return res.body.items.map((s: { id: string }) => s.id);
  }

  async function move(id: string, body: unknown): Promise<HttpResult> {
    const res = await api.post(`/v1/collections/${id}/move`, body);
    if (res.status === 200) assertMatchesSpec('0.130.0', 'post', `${COLLECTION}/move`, 200, res.body);
    return res;
  }

  beforeAll(async () => {
    sut = await sharedSystem();
    ada = await createUser(sut, 'ada', 'collections.test');
    api = http(sut.baseUrl, ada.token);
  });

  it('creates collections at the top level and nested, gets and changes them', async () => {
    const orgId = await organization();
    const top = await createCollection(orgId, 'Guides');
    expect(top).toMatchObject({ object: 'collection', title: 'Guides', organization: orgId, defaultLevel: 'inherit', permissions: ADMIN });
    expect(top.parent).toBeUndefined();
    expect(top.description).toBeUndefined();
    expect(top.urls.location).toMatch(new RegExp(`/v1/collections/${top.id}$`));
    const nested = await createCollection(orgId, 'Nested', top.id);
    expect(nested).toMatchObject({ title: 'Nested', parent: top.id, organization: orgId, defaultLevel: 'inherit', permissions: ADMIN });
    const deeper = await createCollection(orgId, 'Deeper', nested.id);
    expect(deeper.parent).toBe(nested.id);
    const untitled = await api.post(`/v1/orgs/${orgId}/collections`);
    expect(untitled.status).toBe(201);
    expect(untitled.body.title).toBe('Untitled');

    expect(await getCollection(top.id)).toEqual(top);
    expect(await getCollection(nested.id)).toEqual(nested);

    const patch = async (body: Record<string, unknown>) => {
      const res = await api.patch(`/v1/collections/${nested.id}`, body);
      expect({ body, status: res.status, answer: res.status === 200 ? undefined : res.body }).toEqual({ body, status: 200, answer: undefined });
      assertMatchesSpec('0.130.0', 'patch', COLLECTION, 200, res.body);
      expect(res.body).toMatchObject({ id: nested.id, parent: top.id, organization: orgId, permissions: ADMIN });
      expect(await getCollection(nested.id)).toEqual(res.body);
      return res.body;
    };
    expect(await patch({ title: 'Renamed' })).toMatchObject({ title: 'Renamed', defaultLevel: 'inherit' });
    expect(await patch({ description: 'What is inside' })).toMatchObject({ title: 'Renamed', description: 'What is inside' });
    const cleared = await patch({ description: null });
    expect(cleared.description).toBeUndefined();
    for (const level of ['read', 'comment', 'edit', 'review', 'create', 'admin', null, 'inherit']) {
      expect((await patch({ defaultLevel: level })).defaultLevel).toBe(level);
    }
    const all = await patch({ title: 'All at once', description: 'd'.repeat(100), defaultLevel: 'edit' });
    expect(all).toMatchObject({ title: 'All at once', description: 'd'.repeat(100), defaultLevel: 'edit' });

    // Refused: a 400 naming the field, and nothing changes.
    for (const [body, field] of [
      [{ title: 'x'.repeat(51) }, 'title'],
      [{ description: 'd'.repeat(101) }, 'description'],
      [{ defaultLevel: 'owner' }, 'defaultLevel'],
      [{ title: 'Changed', parent: top.id }, 'parent'],
      [{ title: 'Changed', id: 'other' }, 'id'],
      [{ organization: orgId }, 'organization'],
    ] as Array<[Record<string, unknown>, string]>) {
      const res = await api.patch(`/v1/collections/${nested.id}`, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      assertErrorBody(400, res.body);
      expect({ body, message: res.body.error.message }).toEqual({ body, message: expect.stringContaining(field) });
    }
    expect(await getCollection(nested.id)).toEqual(all);

    expectError(await api.post(`/v1/orgs/${orgId}/collections`, { title: 'x'.repeat(51) }), 400, 'title');
    expectError(await api.post(`/v1/orgs/${orgId}/collections`, { title: 'Orphan', parent: 'no-such-collection' }), 400, 'parent');
    expectError(await api.get('/v1/collections/does-not-exist'), 404);
    expectError(await api.patch('/v1/collections/does-not-exist', { title: 'Nope' }), 404);
  });

  it('lists collections (nested by default, the top level with nested=false) and the spaces of one', async () => {
    const orgId = await organization();
    const a = (await createCollection(orgId, 'A')).id;
    const a1 = (await createCollection(orgId, 'A1', a)).id;
    const b = (await createCollection(orgId, 'B')).id;
    const a11 = (await createCollection(orgId, 'A11', a1)).id;

    expect(await collectionIds(orgId)).toEqual([a, a1, b, a11]);
    expect(await collectionIds(orgId, '?nested=true')).toEqual([a, a1, b, a11]);
    expect(await collectionIds(orgId, '?nested=false')).toEqual([a, b]);
    const paged = await api.get(`/v1/orgs/${orgId}/collections?limit=3`);
    expect(paged.body.count).toBe(4);
    expect(paged.body.items.map((c: { id: string }) => c.id)).toEqual([a, a1, b]);
    const rest = await api.get(`/v1/orgs/${orgId}/collections?limit=3&page=${encodeURIComponent(paged.body.next.page)}`);
    expect(rest.body.items.map((c: { id: string }) => c.id)).toEqual([a11]);
    expect(rest.body.next).toBeUndefined();
    expectError(await api.get(`/v1/orgs/${orgId}/collections?nested=maybe`), 400, 'nested');

    // A collection's own spaces, in their order: not those of the collections inside it.
    const s1 = await createSpace(orgId, 's1', a);
    const s2 = await createSpace(orgId, 's2', a);
    await createSpace(orgId, 'in A1', a1);
    await createSpace(orgId, 'top');
    const s3 = await createSpace(orgId, 's3', a);
    expect(await spacesIn(a)).toEqual([s1, s2, s3]);
    expect(await spacesIn(b)).toEqual([]);
    const page = await api.get(`/v1/collections/${a}/spaces?limit=2`);
    expect(page.body).toMatchObject({ count: 3 });
    expect(page.body.items.map((s: { id: string }) => s.id)).toEqual([s1, s2]);
    const next = await api.get(`/v1/collections/${a}/spaces?limit=2&page=${encodeURIComponent(page.body.next.page)}`);
    expect(next.body.items.map((s: { id: string }) => s.id)).toEqual([s3]);
    expect((await api.post(`/v1/spaces/${s3}/move`, { position: { before: { type: 'space', space: s1 } } })).status).toBe(200);
    expect(await spacesIn(a)).toEqual([s3, s1, s2]);
    expectError(await api.get('/v1/collections/does-not-exist/spaces'), 404);
  });

  it('moves collections, never into themselves', async () => {
    const orgId = await organization();
    const a = (await createCollection(orgId, 'A')).id;
    const a1 = (await createCollection(orgId, 'A1', a)).id;
    const a11 = (await createCollection(orgId, 'A11', a1)).id;
    const b = (await createCollection(orgId, 'B')).id;
    const inA11 = await createSpace(orgId, 'deep', a11);

    // Cycles.
    expectError(await move(a, { parent: a }), 400, 'parent');
    expectError(await move(a, { parent: a1 }), 400, 'parent');
    expectError(await move(a, { parent: a11 }), 400, 'parent');
    expectError(await move(a1, { parent: a11 }), 400, 'parent');
    expect((await getCollection(a)).parent).toBeUndefined();
    expect((await getCollection(a1)).parent).toBe(a);

    // Nothing to change.
    expectError(await move(a1, { parent: a }), 409);
    expectError(await move(b, { parent: null }), 409);
    expectError(await move(b, { position: { after: { type: 'collection', collection: a } } }), 409);

    // A1 (with A11 and its space) into B.
    const moved = await move(a1, { parent: b });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: a1, parent: b, organization: orgId });
    expect(await getCollection(a1)).toEqual(moved.body);
    expect((await getCollection(a11)).parent).toBe(a1);
    expect((await getSpace(inA11)).parent).toBe(a11);
    // Now A can go under A11 (no longer below it)…
    expect((await move(a, { parent: a11 })).body.parent).toBe(a11);
    // …and B cannot (A11 is inside B).
    expectError(await move(b, { parent: a11 }), 400, 'parent');
    // To the top level, before B.
    const back = await move(a, { parent: null, position: { before: { type: 'collection', collection: b } } });
    expect(back.status).toBe(200);
    expect(back.body.parent).toBeUndefined();
    expectError(await move(a, { position: { before: { type: 'collection', collection: b } } }), 409);
    expectError(await move(a, { position: { before: { type: 'collection', collection: a11 } } }), 400, 'position.before');
    expectError(await move(a, {}), 400);
    expectError(await move(a, { parent: 'no-such-collection' }), 400, 'parent');
    expectError(await move('does-not-exist', { parent: null }), 404);
    expect(await collectionIds(orgId, '?nested=false')).toEqual([a, b]);
  });

  it('transfers a collection with everything inside it, keeping every id', async () => {
    const orgId = await organization('From');
    const target = await organization('To');
    const top = (await createCollection(orgId, 'Top')).id;
    const inner = (await createCollection(orgId, 'Inner', top)).id;
    const s1 = await createSpace(orgId, 's1', top);
    const s2 = await createSpace(orgId, 's2', inner);
    const s3 = await createSpace(orgId, 's3', inner);
    const stays = await createSpace(orgId, 'stays');
    const staysToo = (await createCollection(orgId, 'Stays too')).id;

    const res = await api.post(`/v1/collections/${top}/transfer`, { organization: target });
    expect(res.status).toBe(200);
    assertMatchesSpec('0.130.0', 'post', `${COLLECTION}/transfer`, 200, res.body);
    expect(res.body).toMatchObject({ id: top, title: 'Top', organization: target, permissions: ADMIN });
    expect(res.body.parent).toBeUndefined();

    // The subtree, intact, in the target organization.
    expect(await getCollection(inner)).toMatchObject({ id: inner, parent: top, organization: target });
    for (const [space, parent] of [
      [s1, top],
      [s2, inner],
      [s3, inner],
    ]) {
      expect(await getSpace(space)).toMatchObject({ id: space, parent, organization: target });
    }
    expect(await spacesIn(top)).toEqual([s1]);
    expect(await spacesIn(inner)).toEqual([s2, s3]);
    expect(await collectionIds(target)).toEqual([top, inner]);
    expect(await collectionIds(target, '?nested=false')).toEqual([top]);
    expect((await spaceIds(target)).sort()).toEqual([s1, s2, s3].sort());
    // Nothing of it is left behind.
    expect(await collectionIds(orgId)).toEqual([staysToo]);
    expect(await spaceIds(orgId)).toEqual([stays]);

    expectError(await api.post(`/v1/collections/${top}/transfer`, { organization: target }), 412);
    expectError(await api.post(`/v1/collections/${staysToo}/transfer`, { organization: orgId }), 412);
    const eve = await createUser(sut, 'eve', 'collections.test');
    const elsewhere = await createOrganization(sut, eve, 'Elsewhere');
    expectError(await api.post(`/v1/collections/${staysToo}/transfer`, { organization: elsewhere }), 404);
    expectError(await api.post(`/v1/collections/${staysToo}/transfer`, {}), 400, 'organization');
    expect((await getCollection(staysToo)).organization).toBe(orgId);

    // A nested collection goes too, to the target's top level.
    const moved = await api.post(`/v1/collections/${inner}/transfer`, { organization: orgId });
    expect(moved.status).toBe(200);
    expect(moved.body.organization).toBe(orgId);
    expect(moved.body.parent).toBeUndefined();
    expect(await getSpace(s2)).toMatchObject({ parent: inner, organization: orgId });
    expect(await collectionIds(target)).toEqual([top]);
  });

  it('deletes a collection with its content (205, then 204); restoring a space inside brings its collections back', async () => {
    const orgId = await organization();
    const top = await createCollection(orgId, 'Top');
    const inner = await createCollection(orgId, 'Inner', top.id);
    const sibling = (await createCollection(orgId, 'Sibling', top.id)).id;
    const s1 = await createSpace(orgId, 's1', top.id);
    const s2 = await createSpace(orgId, 's2', inner.id);
    const s3 = await createSpace(orgId, 's3', sibling);
    const outside = await createSpace(orgId, 'outside');
    const deepSpace = await getSpace(s2);

    const deleted = await api.delete(`/v1/collections/${top.id}`);
    expect(deleted.status).toBe(205);
    expect(deleted.body).toBeUndefined();
    const again = await api.delete(`/v1/collections/${top.id}`);
    expect(again.status).toBe(204);
    expect(again.body).toBeUndefined();
    for (const id of [top.id, inner.id, sibling]) expectError(await api.get(`/v1/collections/${id}`), 404);
    for (const id of [s1, s2, s3]) expectError(await api.get(`/v1/spaces/${id}`), 404);
    expectError(await api.get(`/v1/collections/${top.id}/spaces`), 404);
    expect(await collectionIds(orgId)).toEqual([]);
    expect(await spaceIds(orgId)).toEqual([outside]);
    expectError(await api.delete('/v1/collections/does-not-exist'), 404);

    // Restoring the space of the inner collection brings back the collections on its path, not the others.
    const restored = await api.post(`/v1/spaces/${s2}/restore`);
    expect(restored.status).toBe(200);
    assertMatchesSpec('0.130.0', 'post', '/spaces/{spaceId}/restore', 200, restored.body);
    expect(restored.body).toMatchObject({ id: s2, parent: inner.id, organization: orgId, revision: deepSpace.revision });
    expect(await getCollection(top.id)).toEqual(top);
    expect(await getCollection(inner.id)).toEqual(inner);
    expectError(await api.get(`/v1/collections/${sibling}`), 404);
    expectError(await api.get(`/v1/spaces/${s1}`), 404);
    expectError(await api.get(`/v1/spaces/${s3}`), 404);
    expect(await collectionIds(orgId)).toEqual([top.id, inner.id]);
    expect(await spacesIn(inner.id)).toEqual([s2]);
    expect(await spacesIn(top.id)).toEqual([]);

    // The others, one by one.
    expect((await api.post(`/v1/spaces/${s1}/restore`)).body).toMatchObject({ id: s1, parent: top.id });
    expect((await api.post(`/v1/spaces/${s3}/restore`)).body).toMatchObject({ id: s3, parent: sibling });
    expect((await getCollection(sibling)).parent).toBe(top.id);
    expect(await collectionIds(orgId)).toEqual([top.id, inner.id, sibling]);
    expect((await spaceIds(orgId)).sort()).toEqual([s1, s2, s3, outside].sort());
  });

  it('works with the official client', async () => {
    const orgId = await organization('Client');
    const target = await organization('Client target');
    const client = new GitBookAPI({ endpoint: sut.baseUrl, authToken: ada.token });

    const created = await client.orgs.createCollection(orgId, { title: 'From the client' });
    expect(created.status).toBe(201);
    assertMatchesSpec('0.130.0', 'post', COLLECTIONS, 201, created.data);
    const id = created.data.id;
    const nested = await client.orgs.createCollection(orgId, { title: 'Nested', parent: id });
    expect(nested.data.parent).toBe(id);

    const list = await client.orgs.listCollectionsInOrganizationById(orgId);
    assertMatchesSpec('0.130.0', 'get', COLLECTIONS, 200, list.data);
    expect(list.data.items.map((c) => c.id)).toEqual([id, nested.data.id]);
    const topLevel = await client.orgs.listCollectionsInOrganizationById(orgId, { nested: false });
    expect(topLevel.data.items.map((c) => c.id)).toEqual([id]);

    const got = await client.collections.getCollectionById(id);
    assertMatchesSpec('0.130.0', 'get', COLLECTION, 200, got.data);
    expect(got.data).toEqual(created.data);
    const updated = await client.collections.updateCollectionById(id, { title: 'Renamed by the client', description: 'Described' });
    assertMatchesSpec('0.130.0', 'patch', COLLECTION, 200, updated.data);
    expect(updated.data).toMatchObject({ id, title: 'Renamed by the client', description: 'Described' });

    const space = await client.orgs.createSpace(orgId, { title: 'Inside', parent: id });
    const spaces = await client.collections.listSpacesInCollectionById(id);
    assertMatchesSpec('0.130.0', 'get', `${COLLECTION}/spaces`, 200, spaces.data);
    expect(spaces.data.items.map((s) => s.id)).toEqual([space.data.id]);

    const moved = await client.collections.moveCollection(nested.data.id, { parent: null });
    assertMatchesSpec('0.130.0', 'post', `${COLLECTION}/move`, 200, moved.data);
    expect(moved.data.parent).toBeUndefined();
    await expect(client.collections.moveCollection(id, { parent: id })).rejects.toMatchObject({ code: 400 });

    const transferred = await client.collections.transferCollection(id, { organization: target });
    assertMatchesSpec('0.130.0', 'post', `${COLLECTION}/transfer`, 200, transferred.data);
    expect(transferred.data.organization).toBe(target);
    await expect(client.collections.transferCollection(id, { organization: target })).rejects.toMatchObject({ code: 412 });

    expect((await client.collections.deleteCollectionById(id)).status).toBe(205);
    await expect(client.collections.getCollectionById(id)).rejects.toMatchObject({ code: 404 });
    await expect(client.spaces.getSpaceById(space.data.id)).rejects.toMatchObject({ code: 404 });
  });
});
