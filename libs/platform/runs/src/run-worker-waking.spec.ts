import { randomBytes } from 'node:crypto';
import { connectMongo, MongoHandle } from '@bindery/platform/mongo';
import { RunHandlers } from './run-handlers';
import { RUN_INDEXES, RunRecord, RUNS_COLLECTION } from './run-model';
import { RunStore } from './run-store';
import { RunWorker, RunWorkerOptions } from './run-worker';
import { RunTimings } from './timings';

// A sweep of ten minutes: whatever these tests see happen was woken by a write or a timer, not by it.
const SLOW_SWEEP: RunTimings = { leaseMs: 600_000, heartbeatMs: 300_000, pollMs: 600_000, backoffMs: 300, maxBackoffMs: 300, maxAttempts: 3, scheduledRetentionMs: 3600_000 };

async function eventually<T>(check: () => Promise<T>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

// Two "processes": two connections to one database; the worker runs in the first, writes come from the second.
describe('run workers wake without polling (real MongoDB)', () => {
  const dbName = `runs_waking_${randomBytes(4).toString('hex')}`;
  let worker: MongoHandle;
  let other: MongoHandle;
  let running: RunWorker | undefined;
  const runs = () => worker.db.collection<RunRecord>(RUNS_COLLECTION);
  const otherStore = () => new RunStore(other.db, SLOW_SWEEP);

  const startWorker = async (options: RunWorkerOptions) => {
    running = new RunWorker(new RunStore(worker.db, SLOW_SWEEP), { owner: 'worker', ...options });
    running.start();
    await running.whenWatching();
    // The start's first look for work is over once the worker waits (nothing to claim yet).
    await eventually(async () => expect(running!.idle).toBe(true), 5000);
    return running;
  };

  beforeAll(async () => {
    [worker, other] = await Promise.all([0, 1].map(() => connectMongo(process.env.BINDERY_TEST_MONGODB_URL!, dbName, 'runs-waking')));
    await runs().createIndexes(RUN_INDEXES[RUNS_COLLECTION]);
  });
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    await runs().deleteMany({});
  });
  afterAll(async () => {
    await worker.db.dropDatabase();
    await Promise.all([worker.close(), other.close()]);
  });

  test('a run enqueued by another process is claimed and executed within seconds', async () => {
    const done: string[] = [];
    await startWorker({ handlers: { demo: async (input) => void done.push(String(input['n'])) } });
    const t0 = Date.now();
    const { run } = await otherStore().enqueue({ kind: 'demo', input: { n: 1 } });
    await eventually(async () => expect((await otherStore().get(run._id))?.status).toBe('completed'), 5000);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(done).toEqual(['1']);
  });

  test('a failed attempt is retried when its backoff ends, woken by a timer', async () => {
    let attempts = 0;
    const handlers: RunHandlers = {
      flaky: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('not yet');
        return { attempts };
      },
    };
    await startWorker({ handlers });
    const { run } = await otherStore().enqueue({ kind: 'flaky' });
    await eventually(async () => expect(await otherStore().get(run._id)).toMatchObject({ status: 'completed', attempt: 2 }), 5000);
  });

  test('a run enqueued for later starts when it is due', async () => {
    await startWorker({ handlers: { later: async () => ({}) } });
    const dueAt = new Date(Date.now() + 500);
    const { run } = await otherStore().enqueue({ kind: 'later', dueAt });
    const finished = await eventually(async () => {
      const r = await otherStore().get(run._id);
      expect(r?.status).toBe('completed');
      return r!;
    }, 5000);
    expect(finished.startedAt!.getTime()).toBeGreaterThanOrEqual(dueAt.getTime());
  });

  test('a cancel asked by another process stops the run at once, not at the next heartbeat', async () => {
    let aborted = false;
    await startWorker({
      handlers: {
        long: (_input, ctx) =>
          new Promise((_resolve, reject) =>
            ctx.signal.addEventListener('abort', () => {
              aborted = true;
              reject(ctx.signal.reason);
            }),
          ),
      },
    });
    const { run } = await otherStore().enqueue({ kind: 'long' });
    await eventually(async () => expect((await otherStore().get(run._id))?.status).toBe('in-progress'), 5000);
    await otherStore().cancel(run._id);
    await eventually(async () => expect((await otherStore().get(run._id))?.status).toBe('cancelled'), 5000);
    expect(aborted).toBe(true);
  });

  test("a schedule's occurrences are created at their slots", async () => {
    const executed: number[] = [];
    await startWorker({ handlers: { tick: async (_i, ctx) => void executed.push(ctx.run.createdAt.getTime()) }, schedules: [{ name: 'tick', kind: 'tick', everyMs: 400 }] });
    await eventually(async () => expect(executed.length).toBeGreaterThanOrEqual(3), 5000);
  });

  test('a claim given back (another run of its key still in progress) wakes no worker', async () => {
    const store = otherStore();
    let work = 0;
    const cancelled: string[] = [];
    const feed = store.watch({ onWork: () => (work += 1), onCancel: (runId) => cancelled.push(runId), onGap: () => undefined, onLive: () => undefined });
    await feed.whenLive();
    try {
      // a run of key k whose worker died after its last attempt: only settling ends it, and it holds k meanwhile
      const past = new Date(Date.now() - 60_000);
      await runs().insertOne({
        _id: 'stuck',
        kind: 'demo',
        input: {},
        status: 'in-progress',
        serialKey: 'k',
        attempt: 3,
        maxAttempts: 3,
        leaseOwner: 'gone',
        leaseUntil: past,
        dueAt: past,
        createdAt: past,
        updatedAt: past,
      } as never);
      await store.enqueue({ kind: 'demo', input: {}, serialKey: 'k' });
      const { run: marker } = await store.enqueue({ kind: 'marker', input: {} });
      await eventually(async () => expect(work).toBe(3), 5000);
      expect(await store.claim(['demo'], 'someone')).toBeNull();
      expect(await runs().countDocuments({ serialKey: 'k', status: 'pending' })).toBe(1);
      // a cancel request is reported after anything the claim wrote (a change stream keeps the order of writes)
      await runs().updateOne({ _id: marker._id }, { $set: { cancelRequested: true } });
      await eventually(async () => expect(cancelled).toEqual([marker._id]), 5000);
      expect(work).toBe(3);
    } finally {
      await feed.close();
    }
  });
});
