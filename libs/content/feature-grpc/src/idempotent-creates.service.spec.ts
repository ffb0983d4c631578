import { randomBytes } from 'node:crypto';
import { connectContent } from '@bindery/content/client';
import { IdentityEvents as I } from '@bindery/identity/client';
import { startServiceUnderTest, ServiceUnderTest } from '@bindery/shared/testing';
import type { ContentDeps } from './content-deps';
import { contentServiceWith } from './content-server';
import { identityStandIn } from '@bindery/identity/projection';
import { IDEMPOTENCY_KEY_BUSY, IDEMPOTENCY_KEYS } from '@bindery/platform/mongo';
import { contentV1 } from '@bindery/shared/contracts';

const org = `org-${randomBytes(3).toString('hex')}`;
const alice = { userId: `alice-${randomBytes(3).toString('hex')}`, isInstanceAdmin: false };
const bob = { userId: `bob-${randomBytes(3).toString('hex')}`, isInstanceAdmin: false };
const key = () => `key-${randomBytes(8).toString('hex')}`;

describe('creates with an idempotency key (in process, real MongoDB)', () => {
  let service: ServiceUnderTest<ContentDeps>;
  let clients: ReturnType<typeof connectContent>;
  const descriptor = contentServiceWith(Date.now, identityStandIn);

  beforeAll(async () => {
    service = await startServiceUnderTest(descriptor, { CONTENT_PURGE_EVERY_MS: '86400000' });
    clients = connectContent(service.address, 10000);
    for (const user of [alice, bob])
      await service.running.deps.access.handlers[I.memberAdded.type](I.memberAdded.create('tests', user.userId, { organizationId: org, userId: user.userId, role: 'admin' }, org));
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });

  const spacesNamed = async (title: string) => (await service.running.deps.spaces.allOf({ visible: { organizationId: org, all: true } })).filter((s) => s.title === title).length;

  // Longer than the tier: 10 rounds of simultaneous creates.
  test('simultaneous creates of a space with one key make one space, and every attempt answers it', async () => {
    for (let round = 0; round < 10; round += 1) {
      const k = key();
      const title = `Once ${round}`;
      const answers = await Promise.all(Array.from({ length: 4 }, () => clients.spaces.createSpace({ organizationId: org, title }, { caller: alice, idempotencyKey: k })));
      expect(new Set(answers.map((s) => s.id)).size).toBe(1);
      expect(await spacesNamed(title)).toBe(1);
    }
  }, 60_000);

  test('simultaneous creates of a collection with one key make one collection', async () => {
    const k = key();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => clients.collections.createCollection({ organizationId: org, title: 'Shelf' }, { caller: alice, idempotencyKey: k })),
    );
    expect(new Set(answers.map((c) => c.id)).size).toBe(1);
    expect((await service.running.deps.collections.ofOrganization(org)).filter((c) => c.title === 'Shelf').length).toBe(1);
  });

  test('a retry answers the space the first attempt made; without a key every create is new', async () => {
    const k = key();
    const first = await clients.spaces.createSpace({ organizationId: org, title: 'Retried' }, { caller: alice, idempotencyKey: k });
    const again = await clients.spaces.createSpace({ organizationId: org, title: 'Retried' }, { caller: alice, idempotencyKey: k });
    expect(again.id).toBe(first.id);
    const plain = await Promise.all([1, 2].map(() => clients.spaces.createSpace({ organizationId: org, title: 'Unkeyed' }, { caller: alice })));
    expect(plain[0].id).not.toBe(plain[1].id);
  });

  test('a key is the caller’s own, and reusing it for a different request is refused as unprocessable (422)', async () => {
    const k = key();
    const mine = await clients.spaces.createSpace({ organizationId: org, title: 'Keyed' }, { caller: alice, idempotencyKey: k });
    const theirs = await clients.spaces.createSpace({ organizationId: org, title: 'Keyed' }, { caller: bob, idempotencyKey: k });
    expect(theirs.id).not.toBe(mine.id);
    await expect(clients.spaces.createSpace({ organizationId: org, title: 'Something else' }, { caller: alice, idempotencyKey: k })).rejects.toMatchObject({
      kind: 'unprocessable',
    });
    await expect(clients.collections.createCollection({ organizationId: org, title: 'Keyed' }, { caller: alice, idempotencyKey: k })).rejects.toMatchObject({
      kind: 'unprocessable',
    });
  });

  test('a retry while the first attempt still runs waits for it until its own deadline, then answers conflict (409)', async () => {
    const k = key();
    const first = await clients.spaces.createSpace({ organizationId: org, title: 'Slow' }, { caller: alice, idempotencyKey: k });
    // as if the first attempt were still running (in another process, its claim renewed): its record back to running
    const keys = service.running.mongo.db.collection(IDEMPOTENCY_KEYS);
    const { modifiedCount } = await keys.updateOne(
      { key: k },
      { $set: { state: 'running', token: 'elsewhere', claimedUntil: new Date(Date.now() + 3600_000) }, $unset: { answer: '' } },
    );
    expect(modifiedCount).toBe(1);
    const started = Date.now();
    await expect(
      clients.spaces.createSpace({ organizationId: org, title: 'Slow' }, { caller: alice, idempotencyKey: k, deadline: new Date(started + 1500) }),
    ).rejects.toMatchObject({ kind: 'conflict', message: IDEMPOTENCY_KEY_BUSY });
    expect(Date.now() - started).toBeLessThan(1500);
    // once the first attempt has answered, the retry answers its space
    await keys.updateOne({ key: k }, { $set: { state: 'done', answer: JSON.stringify(contentV1.Space.toJSON(first)) } });
    expect((await clients.spaces.createSpace({ organizationId: org, title: 'Slow' }, { caller: alice, idempotencyKey: k })).id).toBe(first.id);
  });

  test('on a database of an earlier version, start drops the unique index of keys on spaces and collections', async () => {
    const db = service.running.mongo.db;
    // what an earlier version left: a space carrying its key, under a unique index on (organization, caller, key)
    const oldKey = key();
    const old = await clients.spaces.createSpace({ organizationId: org, title: 'Made by an earlier version' }, { caller: alice });
    await db.collection('spaces').updateOne({ _id: old.id as never }, { $set: { idempotency: { by: alice.userId, key: oldKey, request: 'x' } } });
    for (const name of ['spaces', 'collections'])
      await db
        .collection(name)
        .createIndex(
          { organizationId: 1, 'idempotency.by': 1, 'idempotency.key': 1 },
          { name: 'idempotency_key', unique: true, partialFilterExpression: { 'idempotency.key': { $exists: true } } },
        );
    await descriptor.init!(service.running.deps, {} as never);
    for (const name of ['spaces', 'collections']) expect((await db.collection(name).indexes()).map((i) => i.name)).not.toContain('idempotency_key');
    // the key lives on in no index: using it now is a first use
    const fresh = await clients.spaces.createSpace({ organizationId: org, title: 'Made by an earlier version' }, { caller: alice, idempotencyKey: oldKey });
    expect(fresh.id).not.toBe(old.id);
  });

  test('a space created with a key can be duplicated, again and again (the copy is not that create)', async () => {
    const k = key();
    const keyed = await clients.spaces.createSpace({ organizationId: org, title: 'Keyed original' }, { caller: alice, idempotencyKey: k });
    const copies = [await clients.spaces.duplicateSpace({ spaceId: keyed.id }, { caller: alice }), await clients.spaces.duplicateSpace({ spaceId: keyed.id }, { caller: alice })];
    expect(new Set([keyed.id, ...copies.map((c) => c.id)]).size).toBe(3);
    // the create's key is the create's: a duplicate with it is another request
    await expect(clients.spaces.duplicateSpace({ spaceId: keyed.id }, { caller: alice, idempotencyKey: k })).rejects.toMatchObject({ kind: 'unprocessable' });
    // a duplicate with a key of its own copies once
    const d = key();
    const twice = await Promise.all([1, 2, 3].map(() => clients.spaces.duplicateSpace({ spaceId: keyed.id }, { caller: alice, idempotencyKey: d })));
    expect(new Set(twice.map((c) => c.id)).size).toBe(1);
    expect(twice[0].id).not.toBe(keyed.id);
    // the key still answers the original
    expect((await clients.spaces.createSpace({ organizationId: org, title: 'Keyed original' }, { caller: alice, idempotencyKey: k })).id).toBe(keyed.id);
  });
});
