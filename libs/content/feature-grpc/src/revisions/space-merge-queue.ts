import { DomainError } from '@bindery/platform/errors';

/** A merge that cannot start in time: 429, with when to try again (the gateway sends it as Retry-After). */
export class MergeQueueFullError extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('rate_limited', `Other merges into this space are running; retry after ${retryAfterSeconds} s.`);
  }
}

interface Waiter {
  start: () => void;
}

interface Lane {
  running: boolean;
  waiters: Waiter[];
}

export interface SpaceMergeQueueOptions {
  /**
   * time kept after the wait for the merge itself and the answer's way back: four typical merges,
   * within these bounds (ms)
   */
  reserveMs: { min: number; max: number };
  /** the longest wait of a call without a deadline (ms) */
  maxWaitMs: number;
  clock?: () => number;
}

/**
 * Merges into one space run one at a time in this process, in arrival order (FIFO), so that they do
 * not recompute each other away: each runs once on the revision the previous one left. A merge waits
 * at most until its deadline less a reserve (a few typical merges); one that cannot start by then is refused with
 * MergeQueueFullError (429) instead of running out of time (which the caller would see as a service
 * that is unavailable). Spaces are independent. Across replicas the space pointer's compare-and-set
 * still decides (merge-revisions.service.ts); this queue only keeps one process's merges in order.
 */
export class SpaceMergeQueue {
  private readonly lanes = new Map<string, Lane>();
  /** recent durations of a merge's turn, to tell a waiter how long to wait */
  private typicalMs = 100;
  private readonly clock: () => number;

  constructor(private readonly options: SpaceMergeQueueOptions) {
    this.clock = options.clock ?? Date.now;
  }

  /** How many merges of the space are running or waiting. */
  depth(spaceId: string): number {
    const lane = this.lanes.get(spaceId);
    return lane ? (lane.running ? 1 : 0) + lane.waiters.length : 0;
  }

  /**
   * Runs `work` when the space's earlier merges are done, if that is before `deadline` less the
   * reserve; `work` learns whether it waited (what it read before may be stale then).
   */
  async run<T>(spaceId: string, deadline: number | undefined, work: (waited: boolean) => Promise<T>): Promise<T> {
    const waited = await this.turn(spaceId, deadline);
    const started = this.clock();
    try {
      return await work(waited);
    } finally {
      this.typicalMs = Math.round(0.8 * this.typicalMs + 0.2 * (this.clock() - started));
      this.handOver(spaceId);
    }
  }

  private retryAfter(spaceId: string): number {
    return Math.max(1, Math.ceil((this.depth(spaceId) * this.typicalMs) / 1000));
  }

  /** Resolves with whether it waited for an earlier merge. */
  private turn(spaceId: string, deadline: number | undefined): Promise<boolean> {
    let lane = this.lanes.get(spaceId);
    if (!lane) this.lanes.set(spaceId, (lane = { running: false, waiters: [] }));
    if (!lane.running) {
      lane.running = true;
      return Promise.resolve(false);
    }
    const now = this.clock();
    const { min, max } = this.options.reserveMs;
    const reserve = Math.min(max, Math.max(min, 4 * this.typicalMs));
    const waitMs = Math.min(this.options.maxWaitMs, deadline === undefined ? Infinity : deadline - reserve - now);
    // the merges ahead would not be done in time: refuse at once rather than after the wait
    if (waitMs <= 0 || this.depth(spaceId) * this.typicalMs > waitMs) return Promise.reject(new MergeQueueFullError(this.retryAfter(spaceId)));
    const queue = lane;
    return new Promise<boolean>((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        const at = queue.waiters.indexOf(waiter);
        if (at >= 0) queue.waiters.splice(at, 1);
        reject(new MergeQueueFullError(this.retryAfter(spaceId)));
      }, waitMs);
      queue.waiters.push(waiter);
    });
  }

  private handOver(spaceId: string): void {
    const lane = this.lanes.get(spaceId);
    if (!lane) return;
    const next = lane.waiters.shift();
    if (next) return next.start();
    lane.running = false;
    this.lanes.delete(spaceId);
  }
}
