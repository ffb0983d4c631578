import { hostname } from 'node:os';
import { newId } from '@bindery/shared/ids';
import { logger } from '@bindery/platform/telemetry';
import { PermanentRunFailure, reasonOf, RunContext, RunHandlers, Schedule } from './run-handlers';
import type { RunProgress, RunRecord } from './run-model';
import type { RunStore } from './run-store';

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
  done: Promise<void>;
}

/**
 * Executes a service's runs: polls for due runs of the kinds it has handlers for (at once after a
 * local enqueue, every `pollMs` otherwise), claims them with a lease, renews the lease while the
 * handler works, and records the outcome. It also creates the occurrences of its schedules.
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
  private wakeUp?: () => void;
  private unsubscribe?: () => void;

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
    this.loop = this.poll();
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
    await this.loop;
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
      try {
        await this.tick();
      } catch (err) {
        logger.warn('runs: poll failed', { service: this.options.service, error: reasonOf(err) });
      }
      if (!this.running || this.woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.store.timings.pollMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
    }
  }

  private async tick(): Promise<void> {
    await this.enqueueOccurrences();
    await this.store.settleAbandoned(this.kinds);
    while (this.running && this.active.size < this.concurrency) {
      const run = await this.store.claim(this.kinds, this.owner);
      if (!run) return;
      this.execute(run);
    }
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
    this.active.set(run._id, { abort, done });
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
