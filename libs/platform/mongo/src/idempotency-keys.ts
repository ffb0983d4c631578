import { createHash, randomUUID } from 'node:crypto';
import type { Collection, Db, IndexDescription } from 'mongodb';
import { conflict, unprocessable } from '@bindery/platform/errors';
import type { IdempotencyMark } from '@bindery/shared/ids';
import { isDuplicateKey } from './mongo';

/** The collection of a service's idempotency keys. */
export const IDEMPOTENCY_KEYS = 'idempotency_keys';

/** How long a key is remembered after its first use. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3600_000;

/**
 * How long a first use holds its key before another attempt may take it over (its process died). A
 * running attempt renews its claim every third of this while the operation runs, however long it takes.
 */
export const IDEMPOTENCY_CLAIM_MS = 60_000;

/** What a repeated use answers when the first use is still running when its own deadline comes. */
export const IDEMPOTENCY_KEY_BUSY = 'The request first made with this Idempotency-Key is still running: retry it later.';

/** MongoDB's TTL monitor deletes a key once `expiresAt` has passed (within a minute or so of it). */
export const IDEMPOTENCY_KEY_INDEXES: Record<string, IndexDescription[]> = {
  [IDEMPOTENCY_KEYS]: [{ key: { expiresAt: 1 }, name: 'expires', expireAfterSeconds: 0 }],
};

interface KeyRecord {
  /** digest of (caller, key): one record per key of a caller */
  _id: string;
  by: string;
  key: string;
  /** the operation (gRPC method) and the digest of its request: what a repeated use must match */
  method: string;
  request: string;
  state: 'running' | 'done';
  /** the running attempt's token, and until when it holds the key */
  token: string;
  claimedUntil: Date;
  /** the first use's answer (JSON of the reply message), once done */
  answer?: string;
  createdAt: Date;
  expiresAt: Date;
}

/** How an answer is kept: the reply message's JSON codec (ts-proto's `toJSON` / `fromJSON`). */
export interface AnswerCodec<R> {
  toJSON(answer: R): unknown;
  fromJSON(json: unknown): R;
}

export interface IdempotencyKeysOptions {
  clock?: () => number;
  ttlMs?: number;
  claimMs?: number;
  /** how often (real ms) a running attempt renews its claim; a third of claimMs by default */
  renewEveryMs?: number;
  /**
   * The ms the call being served has left to answer in (none: no deadline), read when `once` starts;
   * a repeated use waiting for a running first use stops waiting then (the service passes its gRPC
   * call budget: budgetLeft).
   */
  timeLeft?: () => number | undefined;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A service's `Idempotency-Key`s (docs/api-behaviour.md): the first use of a key by a caller runs the
 * operation and keeps its answer for 24 h; a repeated use with the same operation and request
 * answers that answer; the same key with another request is refused (422). Simultaneous first uses
 * run the operation once: the others wait for its answer. A failed operation keeps nothing (its
 * key may be used again). A key past `expiresAt` is absent here even before MongoDB's TTL monitor
 * deletes it.
 */
export class IdempotencyKeys {
  private readonly keys: Collection<KeyRecord>;
  private readonly clock: () => number;
  private readonly ttlMs: number;
  private readonly claimMs: number;
  private readonly renewEveryMs: number;
  private readonly timeLeft: () => number | undefined;

  constructor(db: Db, options: IdempotencyKeysOptions = {}) {
    this.keys = db.collection<KeyRecord>(IDEMPOTENCY_KEYS);
    this.clock = options.clock ?? Date.now;
    this.ttlMs = options.ttlMs ?? IDEMPOTENCY_KEY_TTL_MS;
    this.claimMs = options.claimMs ?? IDEMPOTENCY_CLAIM_MS;
    this.renewEveryMs = options.renewEveryMs ?? Math.max(1, Math.floor(this.claimMs / 3));
    this.timeLeft = options.timeLeft ?? (() => undefined);
  }

  /** Runs `operation` at most once per (caller, key) while the key lives; without a mark it just runs. */
  async once<R>(method: string, mark: IdempotencyMark | undefined, codec: AnswerCodec<R>, operation: () => Promise<R>): Promise<R> {
    if (!mark) return operation();
    const id = createHash('sha256')
      .update(JSON.stringify([mark.by, mark.key]))
      .digest('base64url');
    const left = this.timeLeft();
    const giveUpAt = left === undefined ? Infinity : this.clock() + left;
    let wait = 10;
    for (;;) {
      const now = this.clock();
      const found = await this.keys.findOne({ _id: id });
      const live = found && found.expiresAt.getTime() > now ? found : null;
      if (live) {
        if (live.method !== method || live.request !== mark.request) throw unprocessable('This Idempotency-Key was already used with a different request.');
        if (live.state === 'done') return codec.fromJSON(JSON.parse(live.answer ?? 'null'));
        if (live.claimedUntil.getTime() > now) {
          // another attempt is running it: its answer is ours, if it comes before our deadline
          if (now >= giveUpAt) throw conflict(IDEMPOTENCY_KEY_BUSY);
          await pause(Math.min(wait, Math.max(1, giveUpAt - now)));
          wait = Math.min(wait * 2, 200);
          continue;
        }
      }
      const token = await this.claim(id, found, live, method, mark, now);
      if (!token) continue;
      let answer: R;
      const renewal = this.renewing(id, token);
      try {
        answer = await operation();
      } catch (err) {
        renewal.stop();
        // nothing was done (or it failed): the key is free again
        await this.keys.deleteOne({ _id: id, token }).catch(() => undefined);
        throw err;
      }
      renewal.stop();
      // The work is done: its answer is the caller's even if it cannot be recorded (a retry then finds the
      // claim, waits for it to run out and runs the operation again, as after a crash).
      await this.keys.updateOne({ _id: id, token }, { $set: { state: 'done', answer: JSON.stringify(codec.toJSON(answer)) } }).catch(() => undefined);
      return answer;
    }
  }

  /**
   * Keeps the attempt's claim alive while its operation runs (each renewal: claimMs from now), so that
   * a long operation is not taken over and run a second time; it stops at the first renewal that
   * finds the claim gone (done, failed, or taken over after this process stalled past it).
   */
  private renewing(id: string, token: string): { stop(): void } {
    let renewal: Promise<void> | undefined;
    const timer = setInterval(() => {
      renewal ??= this.keys
        .updateOne({ _id: id, token, state: 'running' }, { $set: { claimedUntil: new Date(this.clock() + this.claimMs) } })
        .then(
          (r) => {
            if (!r.matchedCount) clearInterval(timer);
          },
          () => undefined, // the next renewal tries again
        )
        .finally(() => (renewal = undefined));
    }, this.renewEveryMs);
    timer.unref();
    return { stop: () => clearInterval(timer) };
  }

  /** Takes the key for an attempt: a new record, or one expired or abandoned; answers the attempt's token, or none if another took it first. */
  private async claim(id: string, found: KeyRecord | null, live: KeyRecord | null, method: string, mark: IdempotencyMark, now: number): Promise<string | undefined> {
    const token = randomUUID();
    const claimedUntil = new Date(now + this.claimMs);
    if (live) {
      // the attempt holding it is gone (its claim ran out): this one runs the operation
      const r = await this.keys.updateOne({ _id: id, token: live.token, state: 'running' }, { $set: { token, claimedUntil } });
      return r.modifiedCount ? token : undefined;
    }
    const record: KeyRecord = {
      _id: id,
      by: mark.by,
      key: mark.key,
      method,
      request: mark.request,
      state: 'running',
      token,
      claimedUntil,
      createdAt: new Date(now),
      expiresAt: new Date(now + this.ttlMs),
    };
    if (found) {
      // expired but not yet deleted by the TTL monitor: replaced as if absent
      const r = await this.keys.replaceOne({ _id: id, token: found.token, expiresAt: found.expiresAt }, record);
      return r.modifiedCount ? token : undefined;
    }
    try {
      await this.keys.insertOne(record);
      return token;
    } catch (err) {
      if (isDuplicateKey(err)) return undefined;
      throw err;
    }
  }
}
