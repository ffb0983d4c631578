/**
 * What a consumer knows about its own progress, for liveness and readiness probes:
 * - `lastFetchAt` (ms since the epoch) moves on every fetch the consumer completes, records or not;
 *   an idle consumer's fetch returns every fetch wait (CONSUMER_FETCH_WAIT_MS, 5 s), so a value
 *   older than a few waits means it is stuck;
 * - `caughtUp` says every partition assigned to this member had no lag after its last batch (or,
 *   before any batch, at the offsets measured when it joined);
 * - `startedUp` resolves once the partitions assigned at the first join reached the end offsets
 *   they had then (a service reports SERVING only after it, within a bound);
 * - `applied()` tells, for each partition this member holds, the next offset it will apply
 *   (undefined until known): what a proof of being current compares with the broker's end offsets.
 */
export interface ConsumerHealth {
  readonly lastFetchAt: number;
  readonly joined: boolean;
  readonly caughtUp: boolean;
  readonly startedUp: Promise<void>;
  applied(): AppliedPosition[];
}

export interface AppliedPosition {
  topic: string;
  partition: number;
  /** every event before this offset is applied (undefined: not known yet) */
  next?: number;
}

type Key = string;
const keyOf = (topic: string, partition: number): Key => `${topic}:${partition}`;

/** Positions of the partitions assigned to one consumer group member, kept from kafkajs' instrumentation events. */
export class PartitionProgress implements ConsumerHealth {
  lastFetchAt = 0;
  joined = false;
  private assigned = new Set<Key>();
  /** the next offset to process, per partition */
  private next = new Map<Key, number>();
  /** the latest end offset (high watermark) seen, per partition */
  private end = new Map<Key, number>();
  /** the end offsets measured at the first join: what "caught up at start" means */
  private startEnd?: Map<Key, number>;
  private started!: () => void;
  readonly startedUp = new Promise<void>((resolve) => (this.started = resolve));

  fetched(at = Date.now()): void {
    this.lastFetchAt = at;
  }

  /** A (re)join: the member's partitions, by topic. */
  assign(assignment: Record<string, number[]>): void {
    this.joined = true;
    this.assigned = new Set(Object.entries(assignment).flatMap(([topic, partitions]) => partitions.map((p) => keyOf(topic, p))));
  }

  /** Offsets read from the broker after a join: where the group stands and where each partition ends. */
  measured(positions: Array<{ topic: string; partition: number; position: number; end: number }>): void {
    const first = !this.startEnd;
    if (first) this.startEnd = new Map();
    for (const p of positions) {
      const key = keyOf(p.topic, p.partition);
      this.next.set(key, Math.max(this.next.get(key) ?? 0, p.position));
      this.end.set(key, Math.max(this.end.get(key) ?? 0, p.end));
      if (first) this.startEnd!.set(key, p.end);
    }
    this.checkStarted();
  }

  /** A batch was processed up to `lastOffset`, of a partition ending at `highWatermark`. */
  batchDone(topic: string, partition: number, lastOffset: number, highWatermark: number): void {
    const key = keyOf(topic, partition);
    this.next.set(key, Math.max(this.next.get(key) ?? 0, lastOffset + 1));
    this.end.set(key, Math.max(this.end.get(key) ?? 0, highWatermark));
    this.checkStarted();
  }

  applied(): AppliedPosition[] {
    if (!this.joined) return [];
    return [...this.assigned].map((key) => {
      const cut = key.lastIndexOf(':');
      return { topic: key.slice(0, cut), partition: Number(key.slice(cut + 1)), next: this.next.get(key) };
    });
  }

  get caughtUp(): boolean {
    if (!this.joined) return false;
    for (const key of this.assigned) {
      if (!this.end.has(key)) return false;
      if ((this.next.get(key) ?? 0) < this.end.get(key)!) return false;
    }
    return true;
  }

  private checkStarted(): void {
    if (!this.joined || !this.startEnd) return;
    for (const key of this.assigned) {
      const target = this.startEnd.get(key);
      if (target === undefined || (this.next.get(key) ?? 0) < target) return;
    }
    this.started();
  }
}
