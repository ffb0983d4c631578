import type { RunProgress, RunRecord } from './run-model';

/** What a handler gets besides the run: its attempt, a way to report progress, and a signal to stop. */
export interface RunContext {
  run: RunRecord;
  /** 1 for the first attempt; a retry or a takeover after a crash counts one more */
  attempt: number;
  /**
   * Fires when the run is cancelled, when this worker lost its lease (another one may take the run
   * over) or when the service stops; the handler should stop soon after (its result is then ignored).
   */
  signal: AbortSignal;
  /** Records how far the run got; written at once (a client polling the run sees it) and kept with the lease. */
  progress(progress: RunProgress): Promise<void>;
}

/** Does a run's work; what it answers becomes the run's `result`. Throwing fails the attempt. */
export type RunHandler = (input: Record<string, unknown>, context: RunContext) => Promise<Record<string, unknown> | void>;

/** A service's handlers, by run kind. */
export type RunHandlers = Record<string, RunHandler>;

/**
 * Thrown by a handler when trying again cannot help (bad input, a missing target): the run fails at
 * once with this message as its reason.
 */
export class PermanentRunFailure extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'PermanentRunFailure';
  }
}

/**
 * Work repeated on a schedule, run by one replica per occurrence: occurrence `n` is the run with
 * idempotency key `<name>@<n>` (n = ⌊now / everyMs⌋), so replicas create it once and one claims it.
 * An occurrence is skipped while the previous one is still pending or running.
 */
export interface Schedule {
  name: string;
  /** the handler's kind (a handler must be registered for it) */
  kind: string;
  everyMs: number;
  input?: Record<string, unknown>;
  /** attempts per occurrence (default 1: the next occurrence is the retry) */
  maxAttempts?: number;
}

/** A readable reason from whatever a handler threw. */
export function reasonOf(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
