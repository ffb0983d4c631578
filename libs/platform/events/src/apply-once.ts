import type { EventEnvelope } from './envelope';

/**
 * The transaction an event is applied in, as the consumer hands it to a handler. Opaque here (this
 * library does no database work); `sessionOf` in platform/mongo reads it as a MongoDB session, and
 * every write of a handler passes it, so the writes commit together with the applied-event marker.
 */
export interface ApplyContext {
  readonly session?: object;
}

/**
 * One event type's handler. A handler that cannot run in one short transaction (it calls another
 * service, or writes more than one transaction should hold) says why in
 * `idempotentOutsideTransaction`: it then runs outside any transaction, must be idempotent by
 * itself, and the marker is recorded after it (a crash in between applies it again).
 */
export type EventHandler = ((event: EventEnvelope, context?: ApplyContext) => Promise<void>) & { readonly idempotentOutsideTransaction?: string };

/** The handlers of one consumer group, by event type. */
export type EventHandlers = Record<string, EventHandler>;

/** Remembers which events a consumer group has applied (on MongoDB: markers under a unique `_id`, expiring). */
export interface ProcessedEvents {
  /**
   * Runs `apply` in one transaction that also records the event as applied by `consumer`, retrying
   * transient transaction errors; answers false, without running it, when the event was applied before.
   */
  applyOnce(consumer: string, eventId: string, apply: (context: ApplyContext) => Promise<void>): Promise<boolean>;
  has(consumer: string, eventId: string): Promise<boolean>;
  record(consumer: string, eventId: string): Promise<void>;
  /**
   * Runs `apply` once for several events in one transaction that also records each as applied by
   * `consumer`: `apply` is given those not applied before (in the order given), and the ids it was
   * given are answered (none: `apply` did not run). Optional: a store without it applies one at a time.
   */
  applyManyOnce?(consumer: string, eventIds: readonly string[], apply: (fresh: ReadonlySet<string>, context: ApplyContext) => Promise<void>): Promise<string[]>;
}

/**
 * A consumer group's handler of a fetched batch: the events (in partition order) not applied before,
 * all of them having a handler in the group's `EventHandlers`, applied in one transaction. It must
 * do what those handlers would do one by one; they still apply each event of a batch that failed
 * (retries, dead letters) and replay dead letters.
 */
export type BatchHandler = (events: readonly EventEnvelope[], context: ApplyContext) => Promise<void>;

/**
 * Applies `event` with `handler` for consumer group `consumer` at most once: in the handler's own
 * transaction with the marker, or (opted out) check, run, then record. Answers whether it ran.
 */
export async function applyEvent(processed: ProcessedEvents, consumer: string, handler: EventHandler, event: EventEnvelope): Promise<boolean> {
  if (!handler.idempotentOutsideTransaction) return processed.applyOnce(consumer, event.id, (context) => handler(event, context));
  if (await processed.has(consumer, event.id)) return false;
  await handler(event, {});
  await processed.record(consumer, event.id);
  return true;
}

/**
 * No apply-once store: every delivery runs the handler (a redelivery after a crash or a rebalance
 * runs it again). For consumers without a database whose handlers are idempotent by nature, such
 * as dropping cache entries.
 */
export const EVERY_DELIVERY: ProcessedEvents = {
  async applyOnce(_consumer, _eventId, apply) {
    await apply({});
    return true;
  },
  has: async () => false,
  record: async () => undefined,
};
