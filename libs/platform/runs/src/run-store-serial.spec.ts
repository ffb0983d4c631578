import { randomBytes } from 'node:crypto';
import { connectMongo, MongoHandle } from '@bindery/platform/mongo';
import { RUN_INDEXES, RunRecord, RUNS_COLLECTION } from './run-model';
import { RunStore } from './run-store';
import { DEFAULT_TIMINGS, RunTimings } from './timings';

const TIMINGS: RunTimings = { ...DEFAULT_TIMINGS, leaseMs: 1000, backoffMs: 100, maxBackoffMs: 250, maxAttempts: 3 };

// Runs sharing a serial key (git sync: one run at a time per space), against the real replica set.
describe('run store: one run at a time per serial key (real MongoDB)', () => {
  const dbName = `runs_serial_${randomBytes(4).toString('hex')}`;
  let mongo: MongoHandle;
  let now = Date.parse('2026-01-01T00:00:00Z');
  let store: RunStore;
  const runs = () => mongo.db.collection<RunRecord>(RUNS_COLLECTION);
  const inProgress = (key: string) => runs().countDocuments({ serialKey: key, status: 'in-progress' });

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

  test('a run waits while another run of its key is in progress, whatever the kind; other keys and unkeyed runs go on', async () => {
    const { run: first } = await store.enqueue({ kind: 'import', serialKey: 'space:1', dueAt: new Date(now - 2) });
    const { run: second } = await store.enqueue({ kind: 'export', serialKey: 'space:1', dueAt: new Date(now - 1) });
    const { run: elsewhere } = await store.enqueue({ kind: 'import', serialKey: 'space:2' });
    const { run: free } = await store.enqueue({ kind: 'import' });
    expect((await store.claim(['import', 'export'], 'w1'))!._id).toBe(first._id);
    const claimed = [(await store.claim(['import', 'export'], 'w2'))!._id, (await store.claim(['import', 'export'], 'w3'))!._id];
    expect(claimed.sort()).toEqual([elsewhere._id, free._id].sort());
    expect(await store.claim(['import', 'export'], 'w4')).toBeNull();
    expect(await store.get(second._id)).toMatchObject({ status: 'pending', attempt: 0 });
    expect(await store.complete(first._id, 'w1', {})).toBe(true);
    expect(await store.claim(['import', 'export'], 'w4')).toMatchObject({ _id: second._id, attempt: 1 });
  });

  test('20 runs of one key claimed by 8 workers at once, round after round: never two in progress, all run in the end', async () => {
    for (let i = 0; i < 20; i++) await store.enqueue({ kind: 'import', serialKey: 'space:1' });
    const done: string[] = [];
    for (let round = 0; round < 40 && done.length < 20; round++) {
      const claims = await Promise.all(Array.from({ length: 8 }, (_, w) => store.claim(['import'], `w${w}`)));
      const got = claims.filter((r): r is RunRecord => !!r);
      expect(got.length).toBeLessThanOrEqual(1);
      expect(await inProgress('space:1')).toBe(got.length);
      for (const run of got) {
        expect(await store.complete(run._id, run.leaseOwner!, {})).toBe(true);
        done.push(run._id);
      }
    }
    expect(new Set(done).size).toBe(20);
    // a claim given back counts no attempt
    expect(await runs().countDocuments({ attempt: { $ne: 1 } })).toBe(0);
  });

  test('a run of the key whose worker died is taken over before a waiting one starts', async () => {
    const { run: dying } = await store.enqueue({ kind: 'import', serialKey: 'space:1' });
    await store.claim(['import'], 'dead');
    const { run: waiting } = await store.enqueue({ kind: 'import', serialKey: 'space:1', dueAt: new Date(now - 60000) });
    now += 1001;
    // the lapsed lease does not make the key busy, but the dead worker's run is still in progress: the waiting run is given back
    expect(await store.claim(['import'], 'live')).toMatchObject({ _id: dying._id, attempt: 2, leaseOwner: 'live' });
    const back = (await store.get(waiting._id))!;
    expect(back).toMatchObject({ status: 'pending', attempt: 0 });
    expect(back.startedAt).toBeUndefined();
    expect(await store.claim(['import'], 'other')).toBeNull();
  });
});
