import { hostname } from 'node:os';
import { newId } from '@bindery/shared/ids';
import { logger } from '@bindery/platform/telemetry';
import { PermanentRunFailure, reasonOf, RunContext, RunHandlers, Schedule } from './run-handlers';
import type { RunProgress, RunRecord } from './run-model';
import type { RunStore } from './run-store';
import type { ChangeFeed } from '@bindery/platform/mongo';

export interface RunWorkerOptions {
  handlers: RunHandlers;
  schedules?: Schedule[];
  /** runs executed at once by this worker */
  concurrency?: number;
  /** names this worker in leases (default: host, process and a random part) */
  owner?: string;
  /** for logs */
  service?: string;
  /** how long `stop` waits for handlers to notice the abort before leaving their leases to lapse */
  stopWaitMs?: number;
}

type AbortCause = 'cancel' | 'lost' | 'stop';

interface Execution {
  abort(cause: AbortCause): void;
  /** renews the lease now (and so notices a cancel request) */
  beat(): void;
  done: Promise<void>;
}

/**
 * Executes a service's runs: looks for due runs of the kinds it has handlers for when woken, claims
 * them with a lease, renews the lease while the handler works, and records the outcome. It also
 * creates the occurrences of its schedules. It is woken by a local enqueue, by the store's watch (a
 * run enqueued, made pending or finished by any process; a cancel request reaches the run's
 * heartbeat at once), by a timer set to the next moment something becomes due without a write (a
 * retry's backoff, another worker's lease ending, a schedule's next slot), and by a sweep every
 * `pollMs` that catches what all of these missed. Idle, it does nothing between sweeps.
 */
export class RunWorker {
  readonly owner: string;
  private readonly kinds: string[];
  private readonly concurrency: number;
  private readonly active = new Map<string, Execution>();
  private readonly lastSlot = new Map<string, number>();
  private running = false;
  private loop?: Promise<void>;
  private woken = false;
  /** when abandoned runs were last settled (store clock) */
  private settledAt = 0;
  private wakeUp?: () => void;
  private unsubscribe?: () => void;
  private feed?: ChangeFeed;
  private waiting = false;
  /** the last wait ended by the timer (a sweep, a lease or backoff ending, a slot), not by a wake */
  private timed = true;

  constructor(
    private readonly store: RunStore,
    private readonly options: RunWorkerOptions,
  ) {
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${newId().slice(0, 6)}`;
    this.kinds = Object.keys(options.handlers);
    this.concurrency = options.concurrency ?? 2;
    for (const s of options.schedules ?? []) {
      if (!options.handlers[s.kind]) throw new Error(`schedule ${s.name} names run kind ${s.kind}, which has no handler`);
    }
  }

  start(): void {
    if (this.running || !this.kinds.length) return;
    this.running = true;
    this.unsubscribe = this.store.onEnqueued(() => this.wake());
    const wake = () => this.wake();
    this.feed = this.store.watch({ onWork: wake, onGap: wake, onLive: wake, onCancel: (id) => this.active.get(id)?.beat() });
    this.loop = this.poll();
  }

  /** True while the worker waits to be woken (it looked for work and found none it could take). */
  get idle(): boolean {
    return this.waiting;
  }

  /** Resolves once writes of other processes wake this worker. */
  async whenWatching(): Promise<void> {
    await this.feed?.whenLive();
  }

  /** Looks for due runs now rather than at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Stops claiming, aborts the runs in progress and gives them back (pending, the attempt not counted). */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.unsubscribe?.();
    this.wake();
    await Promise.all([this.loop, this.feed?.close()]);
    const executions = [...this.active.values()];
    executions.forEach((e) => e.abort('stop'));
    let timer: NodeJS.Timeout | undefined;
    const patience = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.options.stopWaitMs ?? 10_000)));
    await Promise.race([Promise.all(executions.map((e) => e.done)), patience]);
    clearTimeout(timer);
  }

  private async poll(): Promise<void> {
    while (this.running) {
      this.woken = false;
      let waitMs = this.store.timings.pollMs;
      const timed = this.timed;
      this.timed = false;
      try {
        await this.tick(timed);
        waitMs = await this.untilNextDue();
      } catch (err) {
        logger.warn('runs: looking for due runs failed', { service: this.options.service, error: reasonOf(err) });
      }
      if (!this.running || this.woken) continue;
      this.waiting = true;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.timed = true;
          resolve();
        }, waitMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
      this.waiting = false;
    }
  }

  /** Claims what is due; `timed`: also settles runs whose dead worker's lease ended (only time makes those). */
  private async tick(timed: boolean): Promise<void> {
    await this.enqueueOccurrences();
    // Also at least once a sweep interval, however often writes wake the worker.
    const now = this.store.clock();
    if (timed || now - this.settledAt >= this.store.timings.pollMs) {
      this.settledAt = now;
      await this.store.settleAbandoned(this.kinds);
    }
    while (this.running && this.active.size < this.concurrency) {
      const run = await this.store.claim(this.kinds, this.owner);
      if (!run) return;
      this.execute(run);
    }
  }

  /** How long nothing becomes due unless someone writes: until the next slot, backoff or lapsing lease, at most a sweep. */
  private async untilNextDue(): Promise<number> {
    const now = this.store.clock();
    let at = now + this.store.timings.pollMs;
    for (const s of this.options.schedules ?? []) at = Math.min(at, (Math.floor(now / s.everyMs) + 1) * s.everyMs);
    const due = await this.store.nextDueAt(this.kinds, this.owner);
    // A millisecond past it: a lease has lapsed only once the clock is beyond its end.
    if (due !== undefined) at = Math.min(at, due + 1);
    return Math.max(0, at - now);
  }

  /** The current occurrence of each schedule, once per slot (replicas meet on its idempotency key). */
  private async enqueueOccurrences(): Promise<void> {
    for (const s of this.options.schedules ?? []) {
      const slot = Math.floor(this.store.clock() / s.everyMs);
      if (this.lastSlot.get(s.name) === slot) continue;
      if (await this.store.scheduleBusy(s.name)) continue;
      await this.store.enqueue({ kind: s.kind, input: s.input, idempotencyKey: `${s.name}@${slot}`, schedule: s.name, maxAttempts: s.maxAttempts ?? 1 });
      this.lastSlot.set(s.name, slot);
    }
  }

  private execute(run: RunRecord): void {
    const controller = new AbortController();
    let cause: AbortCause | undefined;
    let progress: RunProgress | undefined;
    const abort = (c: AbortCause) => {
      if (cause) return;
      cause = c;
      controller.abort(new Error(c === 'cancel' ? 'The run was cancelled.' : c === 'lost' ? 'The run was taken over by another worker.' : 'The service is stopping.'));
    };
    const beat = async () => {
      if (cause) return;
      // A failed write is not fatal: the next beat tries again, and if none succeeds the lease lapses and another worker takes over.
      const hb = await this.store.heartbeat(run._id, this.owner, progress).catch(() => undefined);
      if (hb && !hb.held) abort('lost');
      else if (hb?.held && hb.cancelRequested) abort('cancel');
    };
    const heartbeat = setInterval(() => void beat(), this.store.timings.heartbeatMs);
    const context: RunContext = {
      run,
      attempt: run.attempt,
      signal: controller.signal,
      progress: async (p) => {
        progress = p;
        await beat();
      },
    };
    const handler = this.options.handlers[run.kind];
    const done = (async () => {
      try {
        const result = await Promise.resolve().then(() => handler(run.input, context));
        clearInterval(heartbeat);
        if (cause !== 'lost') await this.store.complete(run._id, this.owner, result || undefined, progress);
      } catch (err) {
        clearInterval(heartbeat);
        await this.settleFailure(run, cause, err);
      }
    })()
      .catch((err) => logger.warn('runs: could not record an outcome; the lease will lapse', { service: this.options.service, run: run._id, error: reasonOf(err) }))
      .finally(() => {
        clearInterval(heartbeat);
        this.active.delete(run._id);
        this.wake();
      });
    this.active.set(run._id, { abort, done, beat: () => void beat() });
  }

  private async settleFailure(run: RunRecord, cause: AbortCause | undefined, err: unknown): Promise<void> {
    if (cause === 'lost') return;
    if (cause === 'cancel') {
      await this.store.markCancelled(run._id, this.owner);
      return;
    }
    if (cause === 'stop') {
      await this.store.release(run._id, this.owner);
      return;
    }
    const reason = reasonOf(err);
    const outcome = await this.store.failAttempt(run, this.owner, reason, !(err instanceof PermanentRunFailure));
    logger.warn('runs: attempt failed', { service: this.options.service, run: run._id, kind: run.kind, attempt: run.attempt, outcome, reason });
  }
}
