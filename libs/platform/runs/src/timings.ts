/**
 * The numbers a worker runs by. The lease is three heartbeats long, so one slow write to MongoDB does
 * not lose a run; a run whose worker died is taken over once its lease lapses (at most `leaseMs`).
 */
export interface RunTimings {
  /** how long a claim holds without a heartbeat */
  leaseMs: number;
  /** how often a working run renews its lease (and notices a cancel request) */
  heartbeatMs: number;
  /**
   * how often an idle worker sweeps for due runs that nothing woke it for (a write of any process
   * to the runs, a backoff's end, a lease's end and a schedule's slot wake it at once)
   */
  pollMs: number;
  /** the pause before the first retry; each further retry doubles it, up to `maxBackoffMs` */
  backoffMs: number;
  maxBackoffMs: number;
  /** attempts of a run unless its enqueue says otherwise */
  maxAttempts: number;
  /** how long finished runs of schedules are kept */
  scheduledRetentionMs: number;
}

export const DEFAULT_TIMINGS: RunTimings = {
  leaseMs: 30_000,
  heartbeatMs: 10_000,
  pollMs: 60_000,
  backoffMs: 5_000,
  maxBackoffMs: 300_000,
  maxAttempts: 5,
  scheduledRetentionMs: 24 * 3600_000,
};

/** The pause after failed attempt `attempt` (1-based): backoff, 2×, 4×… capped. */
export function backoffAfter(attempt: number, t: Pick<RunTimings, 'backoffMs' | 'maxBackoffMs'>): number {
  return Math.min(t.maxBackoffMs, t.backoffMs * 2 ** Math.max(0, attempt - 1));
}
