import { randomBytes } from 'node:crypto';
import { connectMongo, MongoHandle, withTransaction } from '@bindery/platform/mongo';
import type { Db } from '@bindery/platform/mongo';
import { PermanentRunFailure, RunHandlers, Schedule } from './run-handlers';
import { RUN_INDEXES, RunRecord, RUNS_COLLECTION, RunStatus } from './run-model';
import { RunStore } from './run-store';
import { RunWorker, RunWorkerOptions } from './run-worker';
import { RunTimings } from './timings';

// The test harness (libs/shared/testing) depends on this library, so these tests carry their own helpers.
const FAST_RUN_TIMINGS: RunTimings = { leaseMs: 1000, heartbeatMs: 100, pollMs: 50, backoffMs: 20, maxBackoffMs: 200, maxAttempts: 3, scheduledRetentionMs: 3600_000 };

async function eventually<T>(check: () => Promise<T>, timeoutMs = 15000): Promise<T> {
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

const waitForRun = (db: Db, id: string, status: RunStatus) =>
  eventually(async () => {
    const run = await db.collection<RunRecord>(RUNS_COLLECTION).findOne({ _id: id });
    if (run?.status !== status) throw new Error(`run ${id} is ${run?.status} (${run?.reason}), not ${status}`);
    return run;
  });

/** What a worker killed with -9 leaves: a claim (the attempt counted) that is never renewed nor settled. */
const simulateCrashedWorker = async (db: Db, kind: string) => (await new RunStore(db, FAST_RUN_TIMINGS).claim([kind], 'crashed-worker'))!;

// Two "replicas": two connections to one database, each with its store and worker.
describe('run workers (real MongoDB, two replicas)', () => {
  const dbName = `runs_worker_${randomBytes(4).toString('hex')}`;
  let replicas: MongoHandle[];
  let workers: RunWorker[] = [];
  const db = () => replicas[0].db;
  const runs = () => db().collection<RunRecord>(RUNS_COLLECTION);
  const storeOf = (i: number, clock?: () => number, timings = FAST_RUN_TIMINGS) => new RunStore(replicas[i].db, timings, clock);
  const startWorker = (i: number, options: RunWorkerOptions, store = storeOf(i)) => {
    const w = new RunWorker(store, { owner: `replica-${i}`, ...options });
    w.start();
    workers.push(w);
    return { worker: w, store };
  };

  beforeAll(async () => {
    replicas = await Promise.all([0, 1].map(() => connectMongo(process.env.BINDERY_TEST_MONGODB_URL!, dbName, 'runs-tests')));
    await runs().createIndexes(RUN_INDEXES[RUNS_COLLECTION]);
  });
  afterEach(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    workers = [];
    await runs().deleteMany({});
  });
  afterAll(async () => {
    await db().dropDatabase();
    await Promise.all(replicas.map((r) => r.close()));
  });

  test('60 runs, two workers of concurrency 4: every run executed exactly once, claimed once', async () => {
    const executions = new Map<string, string[]>();
    const handlers = (owner: string): RunHandlers => ({
      demo: async (_input, ctx) => {
        executions.set(ctx.run._id, [...(executions.get(ctx.run._id) ?? []), owner]);
        await new Promise((r) => setImmediate(r));
        return { by: owner };
      },
    });
    const ids = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        storeOf(i % 2)
          .enqueue({ kind: 'demo', input: { i } })
          .then((e) => e.run._id),
      ),
    );
    // Leases of 10 s: this test is about claims, and a machine stalled past a short lease would rightly see a takeover.
    const patient = { ...FAST_RUN_TIMINGS, leaseMs: 10_000 };
    startWorker(0, { handlers: handlers('replica-0'), concurrency: 4 }, storeOf(0, undefined, patient));
    startWorker(1, { handlers: handlers('replica-1'), concurrency: 4 }, storeOf(1, undefined, patient));
    await eventually(async () => expect(await runs().countDocuments({ status: 'completed' })).toBe(60));
    const done = await runs().find().toArray();
    expect(done.map((r) => r.attempt)).toEqual(Array(60).fill(1));
    expect(ids.map((id) => executions.get(id)?.length)).toEqual(Array(60).fill(1));
    const byReplica = [...executions.values()].flat().reduce<Record<string, number>>((acc, o) => ({ ...acc, [o]: (acc[o] ?? 0) + 1 }), {});
    // Both replicas took part (the split varies); printed for the record.
    console.info('runs executed per replica', byReplica);
    expect(Object.values(byReplica).reduce((a, b) => a + b, 0)).toBe(60);
  });

  test('a worker wakes at once for a run enqueued in a committed transaction, and reports progress', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { store } = startWorker(0, {
      handlers: {
        demo: async (input, ctx) => {
          await ctx.progress({ done: 1, total: 2, message: 'halfway' });
          await gate;
          return { doubled: (input['n'] as number) * 2 };
        },
      },
    });
    const { run } = await withTransaction(db(), (session) => store.enqueue({ kind: 'demo', input: { n: 21 } }, session));
    await eventually(async () => expect(await store.get(run._id)).toMatchObject({ status: 'in-progress', progress: { done: 1, total: 2, message: 'halfway' } }));
    release();
    expect(await waitForRun(db(), run._id, 'completed')).toMatchObject({ result: { doubled: 42 }, attempt: 1 });
  });

  test('a run working three times longer than the lease keeps it by heartbeats: the other replica never takes it', async () => {
    const executions: string[] = [];
    // The handler's work lasts 1.2 s (the lease is 400 ms); the test itself waits on the outcome.
    const slow = (owner: string): RunHandlers => ({
      slow: async () => {
        executions.push(owner);
        await new Promise((r) => setTimeout(r, 3 * FAST_RUN_TIMINGS.leaseMs));
      },
    });
    const { store } = startWorker(0, { handlers: slow('replica-0') });
    const { run } = await store.enqueue({ kind: 'slow' });
    await waitForRun(db(), run._id, 'in-progress');
    startWorker(1, { handlers: slow('replica-1') });
    expect(await waitForRun(db(), run._id, 'completed')).toMatchObject({ attempt: 1 });
    expect(executions).toEqual(['replica-0']);
  });

  test('after a worker is killed (its claim left behind), another takes the run over once the lease lapses', async () => {
    const store = storeOf(0);
    const { run } = await store.enqueue({ kind: 'demo' });
    const crashed = await simulateCrashedWorker(db(), 'demo');
    expect(crashed).toMatchObject({ _id: run._id, leaseOwner: 'crashed-worker', attempt: 1 });
    const attempts: number[] = [];
    startWorker(1, { handlers: { demo: async (_i, ctx) => void attempts.push(ctx.attempt) } });
    const done = await waitForRun(db(), run._id, 'completed');
    expect(attempts).toEqual([2]);
    // Not before the dead worker's lease had run out.
    expect(done.startedAt).toEqual(crashed.startedAt);
    expect(done.completedAt!.getTime()).toBeGreaterThanOrEqual(crashed.leaseUntil!.getTime());
  });

  test('a failing run is retried with backoff, then failed with the reason; a permanent failure is not retried', async () => {
    const seen: Array<{ attempt: number; at: number }> = [];
    const { store } = startWorker(0, {
      handlers: {
        flaky: async (_i, ctx) => {
          seen.push({ attempt: ctx.attempt, at: Date.now() });
          throw new Error('content did not answer within 1000 ms');
        },
        invalid: async () => {
          throw new PermanentRunFailure('The space to import into was deleted.');
        },
      },
    });
    const { run } = await store.enqueue({ kind: 'flaky' });
    const { run: invalid } = await store.enqueue({ kind: 'invalid' });
    const failed = await waitForRun(db(), run._id, 'failed');
    expect(failed.reason).toBe('content did not answer within 1000 ms (gave up after 3 attempts)');
    expect(seen.map((s) => s.attempt)).toEqual([1, 2, 3]);
    // 20 ms, then 40 ms between attempts (at least).
    expect(seen[1].at - seen[0].at).toBeGreaterThanOrEqual(20);
    expect(seen[2].at - seen[1].at).toBeGreaterThanOrEqual(40);
    expect(await waitForRun(db(), invalid._id, 'failed')).toMatchObject({ attempt: 1, reason: 'The space to import into was deleted.' });
  });

  test('cancelling a running run aborts its handler at the next heartbeat', async () => {
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    let abortedWith = '';
    const { store } = startWorker(0, {
      handlers: {
        slow: (_i, ctx) =>
          new Promise((_resolve, reject) => {
            started();
            ctx.signal.addEventListener('abort', () => {
              abortedWith = String((ctx.signal.reason as Error).message);
              reject(ctx.signal.reason);
            });
          }),
      },
    });
    const { run } = await store.enqueue({ kind: 'slow' });
    await running;
    await storeOf(1).cancel(run._id);
    expect(await waitForRun(db(), run._id, 'cancelled')).toMatchObject({ attempt: 1 });
    expect(abortedWith).toBe('The run was cancelled.');
  });

  test('a worker that loses its lease aborts; stopping a worker gives its runs back, the attempt not counted', async () => {
    let aborts = 0;
    const hang: RunHandlers = {
      hang: (_i, ctx) => new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => (aborts++, reject(ctx.signal.reason)))),
    };
    const { worker, store } = startWorker(0, { handlers: hang });
    const { run } = await store.enqueue({ kind: 'hang' });
    await waitForRun(db(), run._id, 'in-progress');
    // Another worker took it (as after a pause longer than the lease): the heartbeat finds out.
    await runs().updateOne({ _id: run._id }, { $set: { leaseOwner: 'someone-else' } });
    await eventually(async () => expect(aborts).toBe(1));
    expect(await store.get(run._id)).toMatchObject({ status: 'in-progress', leaseOwner: 'someone-else' });
    await runs().updateOne({ _id: run._id }, { $set: { status: 'pending', dueAt: new Date(0), attempt: 0 }, $unset: { leaseOwner: '', leaseUntil: '' } });
    worker.wake();
    await eventually(async () => expect(await store.get(run._id)).toMatchObject({ status: 'in-progress', leaseOwner: 'replica-0', attempt: 1 }));
    await worker.stop();
    expect(aborts).toBe(2);
    expect(await store.get(run._id)).toMatchObject({ status: 'pending', attempt: 0 });
    expect(await store.get(run._id)).not.toHaveProperty('leaseOwner');
  });

  test('a schedule runs each occurrence once across two replicas', async () => {
    // Near the real time: finished occurrences expire by a TTL index that reads the real clock.
    const start = Math.floor(Date.now() / 60_000) * 60_000;
    let now = start;
    const clock = () => now;
    const executions: string[] = [];
    const schedule: Schedule = { name: 'purge', kind: 'purge', everyMs: 60_000 };
    // Each execution notes the occurrence (slot) its run was created for.
    const handlers = (): RunHandlers => ({ purge: async (_i, ctx) => void executions.push(String(ctx.run.createdAt.getTime() / 60_000)) });
    startWorker(0, { handlers: handlers(), schedules: [schedule] }, storeOf(0, clock));
    startWorker(1, { handlers: handlers(), schedules: [schedule] }, storeOf(1, clock));
    for (let occurrence = 1; occurrence <= 3; occurrence++) {
      await eventually(async () => expect(await runs().countDocuments({ schedule: 'purge', status: 'completed' })).toBe(occurrence));
      now += 60_000;
    }
    const slot = start / 60_000;
    // Occurrences 1-3 executed once each (the fourth may be under way).
    expect(executions.filter((e) => Number(e) < slot + 3).sort()).toEqual([slot, slot + 1, slot + 2].map(String));
    expect((await runs().find({ schedule: 'purge' }).toArray()).filter((r) => r.idempotencyKey! < `purge@${slot + 3}`).map((r) => r.idempotencyKey)).toEqual([
      `purge@${slot}`,
      `purge@${slot + 1}`,
      `purge@${slot + 2}`,
    ]);
    expect(await runs().countDocuments({ schedule: 'purge', expireAt: { $exists: true } })).toBeGreaterThanOrEqual(3);
  });
});
