import { randomBytes } from 'node:crypto';
import { connectMongo, MongoHandle, withTransaction } from '@bindery/platform/mongo';
import { RUN_INDEXES, RunRecord, RUNS_COLLECTION } from './run-model';
import { RunStore } from './run-store';
import { DEFAULT_TIMINGS, RunTimings } from './timings';

const TIMINGS: RunTimings = { ...DEFAULT_TIMINGS, leaseMs: 1000, backoffMs: 100, maxBackoffMs: 250, maxAttempts: 3 };

// The store's conditional writes against the real replica set, with a clock the test moves.
describe('run store (real MongoDB)', () => {
  const dbName = `runs_store_${randomBytes(4).toString('hex')}`;
  let mongo: MongoHandle;
  let now = Date.parse('2026-01-01T00:00:00Z');
  let store: RunStore;
  const runs = () => mongo.db.collection<RunRecord>(RUNS_COLLECTION);

  beforeAll(async () => {
    mongo = await connectMongo(process.env.BINDERY_TEST_MONGODB_URL!, dbName, 'runs-tests');
    await runs().createIndexes(RUN_INDEXES[RUNS_COLLECTION]);
    store = new RunStore(mongo.db, TIMINGS, () => now);
  });
  afterAll(async () => {
    await mongo.db.dropDatabase();
    await mongo.close();
  });
  beforeEach(() => runs().deleteMany({}));

  test('a run enqueued in a transaction exists only if the transaction commits', async () => {
    await expect(
      withTransaction(mongo.db, async (session) => {
        await store.enqueue({ kind: 'demo', input: { n: 1 } }, session);
        throw new Error('the business write failed');
      }),
    ).rejects.toThrow('the business write failed');
    expect(await runs().countDocuments()).toBe(0);
    let woken = 0;
    const off = store.onEnqueued(() => woken++);
    const { run } = await withTransaction(mongo.db, (session) => store.enqueue({ kind: 'demo', input: { n: 2 } }, session));
    off();
    expect(await store.get(run._id)).toMatchObject({ status: 'pending', input: { n: 2 }, attempt: 0 });
    expect(woken).toBe(1);
  });

  test('an idempotency key answers the first run, also when enqueued 10 times at once', async () => {
    const all = await Promise.all(Array.from({ length: 10 }, () => store.enqueue({ kind: 'demo', idempotencyKey: 'import-42' })));
    expect(new Set(all.map((e) => e.run._id)).size).toBe(1);
    expect(all.filter((e) => e.created)).toHaveLength(1);
    const again = await withTransaction(mongo.db, (session) => store.enqueue({ kind: 'demo', idempotencyKey: 'import-42' }, session));
    expect(again).toMatchObject({ created: false, run: { _id: all[0].run._id } });
    // The key is per kind.
    expect((await store.enqueue({ kind: 'other', idempotencyKey: 'import-42' })).created).toBe(true);
    expect(await runs().countDocuments()).toBe(2);
  });

  test('a failed attempt waits its backoff (100 ms, then 200 ms), then the run fails with a readable reason', async () => {
    const { run } = await store.enqueue({ kind: 'demo' });
    const first = (await store.claim(['demo'], 'w1'))!;
    expect(first.attempt).toBe(1);
    expect(await store.failAttempt(first, 'w1', 'content is unreachable', true)).toBe('retrying');
    expect(await store.get(run._id)).toMatchObject({ status: 'pending', reason: 'content is unreachable', dueAt: new Date(now + 100) });
    now += 99;
    expect(await store.claim(['demo'], 'w1')).toBeNull();
    now += 1;
    const second = (await store.claim(['demo'], 'w1'))!;
    await store.failAttempt(second, 'w1', 'content is unreachable', true);
    now += 199;
    expect(await store.claim(['demo'], 'w1')).toBeNull();
    now += 1;
    const third = (await store.claim(['demo'], 'w1'))!;
    expect(third.attempt).toBe(3);
    expect(await store.failAttempt(third, 'w1', 'content is unreachable', true)).toBe('failed');
    expect(await store.get(run._id)).toMatchObject({ status: 'failed', reason: 'content is unreachable (gave up after 3 attempts)', completedAt: new Date(now) });
    expect(await store.claim(['demo'], 'w1')).toBeNull();
  });

  test('a lapsed lease is taken over; the first worker can no longer renew, finish or fail it', async () => {
    const { run } = await store.enqueue({ kind: 'demo' });
    const a = (await store.claim(['demo'], 'a'))!;
    expect(await store.claim(['demo'], 'b')).toBeNull();
    now += 999;
    expect(await store.heartbeat(run._id, 'a')).toEqual({ held: true, cancelRequested: false });
    now += 1000;
    expect(await store.claim(['demo'], 'b')).toBeNull();
    now += 1;
    const b = (await store.claim(['demo'], 'b'))!;
    expect(b).toMatchObject({ _id: run._id, attempt: 2, leaseOwner: 'b' });
    expect(await store.heartbeat(run._id, 'a')).toEqual({ held: false });
    expect(await store.complete(run._id, 'a', { by: 'a' })).toBe(false);
    expect(await store.failAttempt(a, 'a', 'boom', true)).toBe('lost');
    expect(await store.complete(run._id, 'b', { by: 'b' })).toBe(true);
    expect(await store.get(run._id)).toMatchObject({ status: 'completed', result: { by: 'b' } });
  });

  test('a run whose worker died on its last attempt fails; one asked to stop is cancelled', async () => {
    const { run: dying } = await store.enqueue({ kind: 'demo', maxAttempts: 1 });
    const { run: stopping } = await store.enqueue({ kind: 'demo' });
    await store.claim(['demo'], 'dead');
    await store.claim(['demo'], 'dead');
    await store.cancel(stopping._id);
    expect(await store.settleAbandoned(['demo'])).toBe(0);
    now += 1001;
    expect(await store.claim(['demo'], 'live')).toBeNull();
    expect(await store.settleAbandoned(['demo'])).toBe(2);
    expect(await store.get(dying._id)).toMatchObject({ status: 'failed', reason: 'The worker running it stopped responding on every attempt.' });
    expect(await store.get(stopping._id)).toMatchObject({ status: 'cancelled' });
  });

  test('cancel: a queued run at once, a running one by a flag its heartbeat reads, a finished one stays', async () => {
    const { run: queued } = await store.enqueue({ kind: 'demo', dueAt: new Date(now + 60000) });
    expect(await store.cancel(queued._id)).toMatchObject({ status: 'cancelled', completedAt: new Date(now) });
    const { run: running } = await store.enqueue({ kind: 'demo' });
    await store.claim(['demo'], 'w');
    expect(await store.cancel(running._id)).toMatchObject({ status: 'in-progress', cancelRequested: true });
    expect(await store.heartbeat(running._id, 'w')).toEqual({ held: true, cancelRequested: true });
    await store.markCancelled(running._id, 'w');
    expect(await store.cancel(running._id)).toMatchObject({ status: 'cancelled' });
    expect(await store.cancel('absent')).toBeNull();
  });

  test('runs of an organization, newest first, by keyset pages', async () => {
    for (let i = 0; i < 5; i++) {
      now += 1;
      await store.enqueue({ kind: 'import', organizationId: 'org1', input: { i } });
    }
    await store.enqueue({ kind: 'import', organizationId: 'org2' });
    await store.enqueue({ kind: 'other', organizationId: 'org1' });
    const first = await store.listByOrganization('org1', 'import', { limit: 2 });
    expect(first.count).toBe(5);
    expect(first.items.map((r) => r.input['i'])).toEqual([4, 3]);
    const second = await store.listByOrganization('org1', 'import', { limit: 2, page: first.nextPage });
    const third = await store.listByOrganization('org1', 'import', { limit: 2, page: second.nextPage });
    expect([...second.items, ...third.items].map((r) => r.input['i'])).toEqual([2, 1, 0]);
    expect(third.nextPage).toBeUndefined();
  });

  test('a list narrowed by status and input fields; runs removed by their input, a running one losing its lease', async () => {
    for (const space of ['s1', 's1', 's2', 's3']) {
      now += 1;
      await store.enqueue({ kind: 'import', organizationId: 'org1', input: { space } });
    }
    const running = await store.claim(['import'], 'w1');
    expect(running!.input['space']).toBe('s1');
    const active = await store.listByOrganization('org1', 'import', {}, { statuses: ['pending', 'in-progress'], input: { space: 's1' } });
    expect(active.count).toBe(2);
    expect((await store.listByOrganization('org1', 'import', {}, { statuses: ['in-progress'] })).items.map((r) => r._id)).toEqual([running!._id]);
    const some = await store.listByOrganization('org1', 'import', {}, { input: { space: { $in: ['s2', 's3'] } } });
    expect(some.items.map((r) => r.input['space'])).toEqual(['s3', 's2']);
    expect(await store.removeOf('import', { space: 's1' })).toBe(2);
    expect(await store.heartbeat(running!._id, 'w1')).toEqual({ held: false });
    expect((await store.listByOrganization('org1', 'import')).count).toBe(2);
  });
});
