import { randomUUID } from 'node:crypto';
import { connectMongo, IDEMPOTENCY_KEYS } from '@bindery/platform/mongo';
import { assertErrorBody, assertMatchesSpec, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { CR, editChangeRequest } from './change-request-fixtures';
import { createOrganization, createUser, TestUser } from './fixtures';
import { Client, http } from './http-client';

/** The Idempotency-Key header of creates and merges: a retry answers what the first attempt answered, for 24 h. */
describe('Idempotency-Key on creates and merges', () => {
  let sut: SystemUnderTest;
  let owner: TestUser;
  let orgId: string;
  let admin: Client;

  beforeAll(async () => {
    sut = await sharedSystem();
    owner = await createUser(sut, 'idempotent-owner');
    orgId = await createOrganization(sut, owner, 'Idempotent');
    admin = http(sut.baseUrl, owner.token);
  });

  const keyed = (key: string) => ({ 'Idempotency-Key': key });

  it('two simultaneous space creates with one key make one space; both answer 201 with it', async () => {
    const key = randomUUID();
    const [a, b] = await Promise.all([1, 2].map(() => admin.post(`/v1/orgs/${orgId}/spaces`, { title: 'Once' }, keyed(key))));
    expect([a.status, b.status]).toEqual([201, 201]);
    for (const r of [a, b]) assertMatchesSpec('0.202.0', 'post', '/orgs/{organizationId}/spaces', 201, r.body);
    expect(b.body.id).toBe(a.body.id);
    const listed = await admin.get(`/v1/orgs/${orgId}/spaces?limit=1000`);
    expect((listed.body.items as Array<{ title: string }>).filter((s) => s.title === 'Once')).toHaveLength(1);
  });

  it('a collection created twice with one key is one collection', async () => {
    const key = randomUUID();
    const first = await admin.post(`/v1/orgs/${orgId}/collections`, { title: 'Shelf' }, keyed(key));
    const again = await admin.post(`/v1/orgs/${orgId}/collections`, { title: 'Shelf' }, keyed(key));
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.id).toBe(first.body.id);
  });

  it('refuses a malformed key (400) and a key reused for another request (422: another body, path or operation)', async () => {
    const bad = await admin.post(`/v1/orgs/${orgId}/spaces`, { title: 'Bad key' }, keyed('has spaces in it'));
    expect(bad.status).toBe(400);
    assertErrorBody(bad.status, bad.body);
    const key = randomUUID();
    expect((await admin.post(`/v1/orgs/${orgId}/spaces`, { title: 'First' }, keyed(key))).status).toBe(201);
    const otherOrg = await createOrganization(sut, owner, 'Idempotent elsewhere');
    for (const [path, body] of [
      [`/v1/orgs/${orgId}/spaces`, { title: 'Second' }],
      [`/v1/orgs/${otherOrg}/spaces`, { title: 'First' }],
      [`/v1/orgs/${orgId}/collections`, { title: 'First' }],
    ] as const) {
      const reused = await admin.post(path, body, keyed(key));
      expect(reused.status).toBe(422);
      assertErrorBody(reused.status, reused.body);
      expect(reused.body.error).toEqual({ code: 422, message: expect.stringMatching(/Idempotency-Key/) });
    }
  });

  it('answers a repeated create with the first answer (status and body), even after the resource changed', async () => {
    const key = randomUUID();
    const first = await admin.post(`/v1/orgs/${orgId}/spaces`, { title: 'Answered once' }, keyed(key));
    expect(first.status).toBe(201);
    expect((await admin.patch(`/v1/spaces/${first.body.id}`, { title: 'Renamed since' })).status).toBe(200);
    const again = await admin.post(`/v1/orgs/${orgId}/spaces`, { title: 'Answered once' }, keyed(key));
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
  });

  it('forgets a key once it expired, even before MongoDB deletes it: the same key creates again', async () => {
    const key = randomUUID();
    const first = await admin.post(`/v1/orgs/${orgId}/collections`, { title: 'Expiring' }, keyed(key));
    expect(first.status).toBe(201);
    const mongo = await connectMongo(sut.env.MONGODB_URL, sut.env.CONTENT_DB, 'tests');
    try {
      // an hour past expiry: the TTL monitor (every 60 s) may not have deleted it yet, the service ignores it
      const r = await mongo.db.collection(IDEMPOTENCY_KEYS).updateOne({ key }, { $set: { expiresAt: new Date(Date.now() - 3600_000) } });
      expect(r.modifiedCount).toBe(1);
      const again = await admin.post(`/v1/orgs/${orgId}/collections`, { title: 'Expiring' }, keyed(key));
      expect(again.status).toBe(201);
      expect(again.body.id).not.toBe(first.body.id);
      // and the key was used anew: its record lives another 24 h
      const record = await mongo.db.collection(IDEMPOTENCY_KEYS).findOne({ key });
      expect(record?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
    } finally {
      await mongo.close();
    }
  });

  it('opens one change request for simultaneous creates with one key, and a merge retried with its key answers the merge', async () => {
    const space = (await admin.post(`/v1/orgs/${orgId}/spaces`, { title: 'Merged once' })).body;
    const key = randomUUID();
    const opened = await Promise.all([1, 2, 3].map(() => admin.post(CR(space.id), { subject: 'One' }, keyed(key))));
    expect(opened.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(new Set(opened.map((r) => r.body.id)).size).toBe(1);
    const list = await admin.get(`${CR(space.id)}?limit=100`);
    expect(list.body.items).toHaveLength(1);
    const cr = opened[0].body;
    await editChangeRequest(admin, space.id, cr.id, [{ operation: 'insert_page', title: 'Added', document: { markdown: 'Hello.' } }]);

    const mergeKey = randomUUID();
    const merged = await admin.post(`${CR(space.id, cr.id)}/merge`, undefined, keyed(mergeKey));
    expect(merged.status).toBe(200);
    assertMatchesSpec('0.130.0', 'post', '/spaces/{spaceId}/change-requests/{changeRequestId}/merge', 200, merged.body);
    // the client never saw that answer (a timeout, a 503) and sends the merge again with its key
    const retried = await admin.post(`${CR(space.id, cr.id)}/merge`, undefined, keyed(mergeKey));
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual(merged.body);
    // without the key, or with another, merging a merged change request stays a conflict
    expect((await admin.post(`${CR(space.id, cr.id)}/merge`, undefined)).status).toBe(409);
    expect((await admin.post(`${CR(space.id, cr.id)}/merge`, undefined, keyed(randomUUID()))).status).toBe(409);
    expect((await admin.get(`/v1/spaces/${space.id}`)).body.revision).toBe(merged.body.revision);
  });

  it('declares the header, its 422 and its 409 on exactly the creates and the merge in /openapi.json', async () => {
    const doc = (await http(sut.baseUrl).get('/openapi.json')).body;
    const withHeader: string[] = [];
    type Operation = { operationId: string; parameters?: Array<{ in: string; name: string }>; responses: Record<string, unknown> };
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Operation>>))
      for (const op of Object.values(ops)) {
        const takesKey = op.parameters?.some((p) => p.in === 'header' && p.name === 'Idempotency-Key') ?? false;
        if (takesKey) withHeader.push(`${op.operationId} ${path}`);
        expect([op.operationId, '422' in op.responses]).toEqual([op.operationId, takesKey]);
        // and the 409 of a retry whose first request was still running when it had to answer
        if (takesKey) expect([op.operationId, '409' in op.responses]).toEqual([op.operationId, true]);
      }
    expect(withHeader.sort()).toEqual([
      'createChangeRequest /v1/spaces/{spaceId}/change-requests',
      'createCollection /v1/orgs/{organizationId}/collections',
      'createSpace /v1/orgs/{organizationId}/spaces',
      'duplicateSpace /v1/spaces/{spaceId}/duplicate',
      'mergeChangeRequest /v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge',
    ]);
  });
});
