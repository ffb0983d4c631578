import type { ConsumerHealth } from './consumer-health';

/**
 * Whether a consumer can prove it is current, for a projection that may decide only then: it fetched
 * from the broker a moment ago and every partition it holds has nothing left behind. An idle
 * consumer's fetch returns every fetch wait (250 ms), so a live one proves itself about four times a
 * second; with the broker down or the group rebalancing, fetches stop and the proof lapses after
 * `windowMs`. Created with the projection, attached to its consumer's health once that consumer runs.
 */
export class ConsumerLiveness {
  private health?: Pick<ConsumerHealth, 'lastFetchAt' | 'caughtUp'>;

  constructor(
    private readonly windowMs = 500,
    private readonly clock: () => number = Date.now,
  ) {}

  attach(health: Pick<ConsumerHealth, 'lastFetchAt' | 'caughtUp'>): void {
    this.health = health;
  }

  isLive(): boolean {
    const h = this.health;
    return !!h && h.caughtUp && this.clock() - h.lastFetchAt <= this.windowMs;
  }
}
