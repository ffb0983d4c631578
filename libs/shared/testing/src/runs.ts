import type { Db } from '@bindery/platform/mongo';
import { RunRecord, RUNS_COLLECTION, RunStatus, RunTimings } from '@bindery/platform/runs';
import { eventually } from './eventually';

/**
 * Timings for tests of services with runs: leases of a second (ten heartbeats: a loaded test machine can stall one), so takeovers and
 * retries happen within a test's patience, without any test waiting a fixed time.
 */
export const FAST_RUN_TIMINGS: RunTimings = {
  leaseMs: 1000,
  heartbeatMs: 100,
  pollMs: 50,
  backoffMs: 20,
  maxBackoffMs: 200,
  maxAttempts: 3,
  scheduledRetentionMs: 3600_000,
};

/** The same timings as the settings a service reads (for `startServiceUnderTest` and `startSystem`). */
export const FAST_RUN_SETTINGS: Record<string, string> = {
  RUNS_LEASE_MS: String(FAST_RUN_TIMINGS.leaseMs),
  RUNS_HEARTBEAT_MS: String(FAST_RUN_TIMINGS.heartbeatMs),
  RUNS_POLL_MS: String(FAST_RUN_TIMINGS.pollMs),
  RUNS_BACKOFF_MS: String(FAST_RUN_TIMINGS.backoffMs),
};

/** Waits until the run reaches one of `statuses`, and answers it (fails with the run as last seen). */
export async function waitForRun(db: Db, runId: string, statuses: RunStatus | RunStatus[], timeoutMs = 15000): Promise<RunRecord> {
  const wanted = Array.isArray(statuses) ? statuses : [statuses];
  return eventually(
    async () => {
      const run = await db.collection<RunRecord>(RUNS_COLLECTION).findOne({ _id: runId });
      if (!run || !wanted.includes(run.status)) throw new Error(`run ${runId} is ${run ? `${run.status} (${run.reason ?? 'no reason'})` : 'absent'}, not ${wanted.join(' or ')}`);
      return run;
    },
    timeoutMs,
    20,
  );
}

/**
 * What a worker killed with -9 leaves behind: it claimed the run (the attempt is counted) and then
 * never renewed its lease nor recorded an outcome. The run is claimed here whatever its `dueAt`
 * (enqueue it with a later `dueAt` so no live worker takes it first). With `lapsed` (the default)
 * the lease has already run out, so a live worker takes the run over at its next poll; otherwise
 * it runs out after `leaseMs`.
 */
export async function simulateCrashedWorker(db: Db, runId: string, { lapsed = true, leaseMs = FAST_RUN_TIMINGS.leaseMs } = {}): Promise<RunRecord> {
  const leaseUntil = new Date(Date.now() + (lapsed ? -1 : leaseMs));
  const claimed = await db
    .collection<RunRecord>(RUNS_COLLECTION)
    .findOneAndUpdate(
      { _id: runId, status: 'pending' },
      { $set: { status: 'in-progress', leaseOwner: 'crashed-worker', leaseUntil, startedAt: new Date(), updatedAt: new Date() }, $inc: { attempt: 1 } },
      { returnDocument: 'after' },
    );
  if (!claimed) throw new Error(`run ${runId} is not pending: a crashed worker could not have claimed it`);
  return claimed;
}
