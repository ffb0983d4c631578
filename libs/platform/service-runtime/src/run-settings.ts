import type { Config, Schema } from '@bindery/platform/config';
import { DEFAULT_TIMINGS, RunTimings } from '@bindery/platform/runs';

/** Every service's settings for its run worker (see docs/runs.md for what the numbers mean). */
export const RUN_SETTINGS = {
  /** how long a claimed run holds without a heartbeat; a dead worker's runs are taken over after it */
  RUNS_LEASE_MS: { kind: 'int', default: DEFAULT_TIMINGS.leaseMs, min: 100, max: 3_600_000 },
  /** how often a working run renews its lease and looks for a cancel request */
  RUNS_HEARTBEAT_MS: { kind: 'int', default: DEFAULT_TIMINGS.heartbeatMs, min: 20, max: 1_200_000 },
  /** how often an idle worker looks for due runs (a local enqueue wakes it at once) */
  RUNS_POLL_MS: { kind: 'int', default: DEFAULT_TIMINGS.pollMs, min: 10, max: 600_000 },
  /** the pause before the first retry of a failed attempt; doubled for each further one */
  RUNS_BACKOFF_MS: { kind: 'int', default: DEFAULT_TIMINGS.backoffMs, min: 1, max: 3_600_000 },
  /** runs one replica executes at once */
  RUNS_CONCURRENCY: { kind: 'int', default: 2, min: 1, max: 64 },
} satisfies Schema;

export function runTimingsOf(config: Config<typeof RUN_SETTINGS>): RunTimings {
  if (config.RUNS_HEARTBEAT_MS * 2 > config.RUNS_LEASE_MS) {
    throw new Error(`RUNS_HEARTBEAT_MS (${config.RUNS_HEARTBEAT_MS}) must be at most half of RUNS_LEASE_MS (${config.RUNS_LEASE_MS}), or a slow heartbeat loses its run`);
  }
  return {
    ...DEFAULT_TIMINGS,
    leaseMs: config.RUNS_LEASE_MS,
    heartbeatMs: config.RUNS_HEARTBEAT_MS,
    pollMs: config.RUNS_POLL_MS,
    backoffMs: config.RUNS_BACKOFF_MS,
  };
}
