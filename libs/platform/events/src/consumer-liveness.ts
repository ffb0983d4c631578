/**
 * Whether a consumer can prove it is current: it fetched from the broker a moment ago and the last
 * batch of every partition it was given left nothing behind. An idle consumer's fetch returns every
 * fetch wait (250 ms), so a live one proves itself about four times a second; with the broker down or
 * the group rebalancing, fetches stop and the proof lapses after `windowMs`.
 */
export class ConsumerLiveness {
  private lastFetchAt = Number.NEGATIVE_INFINITY;
  /** partitions whose last batch ended with events still behind it, or is being processed */
  private readonly behind = new Set<string>();

  constructor(
    private readonly windowMs = 500,
    private readonly clock: () => number = Date.now,
  ) {}

  /** A fetch answered (with or without events). */
  fetched(): void {
    this.lastFetchAt = this.clock();
  }

  batchStarted(topic: string, partition: number): void {
    this.behind.add(`${topic}/${partition}`);
  }

  batchEnded(topic: string, partition: number, lag: number): void {
    if (lag > 0) this.behind.add(`${topic}/${partition}`);
    else this.behind.delete(`${topic}/${partition}`);
  }

  /** The consumer stopped, crashed or is being rebalanced: nothing is proven until it fetches again. */
  lost(): void {
    this.lastFetchAt = Number.NEGATIVE_INFINITY;
    this.behind.clear();
  }

  isLive(): boolean {
    return this.behind.size === 0 && this.clock() - this.lastFetchAt <= this.windowMs;
  }
}
