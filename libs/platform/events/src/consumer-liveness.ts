import type { AppliedPosition } from './consumer-health';

/** Where each partition of the consumer's topics ends now, as the broker answers. */
export type EndOffsets = () => Promise<Array<{ topic: string; partition: number; end: number }>>;

export interface LivenessOptions {
  /** how long the broker may take to answer before the proof counts as not given */
  boundMs?: number;
  /** how long a broker's answer serves further questions (measured from when it was asked) */
  cacheMs?: number;
  clock?: () => number;
}

/** The defaults: an answer within 150 ms, shared for 30 ms. */
export const LIVENESS_BOUND_MS = 150;
export const LIVENESS_CACHE_MS = 30;

/** How long an unanswered request stands for the broker's state: askers meanwhile are answered "not proven" at once. */
const ABANDON_MS = 1000;

type Ends = Map<string, number>;
const keyOf = (topic: string, partition: number) => `${topic}:${partition}`;

/**
 * Whether a consumer can prove it is current, for a projection that may decide only then: for every
 * partition this member holds, the events it has applied reach the partition's end offset, which is
 * asked of the broker when the question comes (admin ListOffsets). One answer of the broker serves
 * every question for `cacheMs` (concurrent askers share the request under way); an answer that does
 * not come within `boundMs`, a failure, a member that holds no partition or whose positions are not
 * known yet: not proven (the projection then asks the source). With the broker down, the proof
 * fails at the first question, within `boundMs`; while that request stays unanswered (up to a
 * second, then it is asked again) every question is answered "not proven" at once. Created with the projection, attached to its
 * consumer once that consumer runs.
 */
export class ConsumerLiveness {
  private applied?: () => AppliedPosition[];
  private endOffsets?: EndOffsets;
  private readonly boundMs: number;
  private readonly cacheMs: number;
  private readonly clock: () => number;
  private asking?: { at: number; answer: Promise<Ends | undefined> };
  private answered?: { at: number; ends: Ends };

  constructor(options: LivenessOptions = {}) {
    this.boundMs = options.boundMs ?? LIVENESS_BOUND_MS;
    this.cacheMs = options.cacheMs ?? LIVENESS_CACHE_MS;
    this.clock = options.clock ?? Date.now;
  }

  attach(health: { applied(): AppliedPosition[] }, endOffsets: EndOffsets): void {
    this.applied = () => health.applied();
    this.endOffsets = endOffsets;
  }

  /** True only when every partition this member holds is applied up to the broker's end offset. */
  async isCurrent(): Promise<boolean> {
    if (!this.applied || !this.endOffsets) return false;
    const ends = await this.ends(this.endOffsets);
    if (!ends) return false;
    // Read after the broker answered: positions only move forward, so this is the freshest claim.
    const positions = this.applied();
    if (!positions.length) return false;
    return positions.every((p) => {
      const end = ends.get(keyOf(p.topic, p.partition));
      return p.next !== undefined && end !== undefined && p.next >= end;
    });
  }

  private async ends(endOffsets: EndOffsets): Promise<Ends | undefined> {
    const now = this.clock();
    if (this.answered && now - this.answered.at < this.cacheMs) return this.answered.ends;
    // A request the broker left unanswered is given up after a while (kafkajs may retry it for seconds).
    if (this.asking && now - this.asking.at > ABANDON_MS) this.asking = undefined;
    if (!this.asking) {
      const at = now;
      const answer = endOffsets().then(
        (offsets) => {
          const ends: Ends = new Map(offsets.map((o) => [keyOf(o.topic, o.partition), o.end]));
          // Only an answer that came within the bound serves others: a late one says little about now.
          if (this.clock() - at <= this.boundMs) this.answered = { at, ends };
          return ends;
        },
        () => undefined,
      );
      this.asking = { at, answer };
      void answer.finally(() => {
        if (this.asking?.answer === answer) this.asking = undefined;
      });
    }
    const left = this.asking.at + this.boundMs - now;
    if (left <= 0) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), left)));
    try {
      return await Promise.race([this.asking.answer, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
