import { EventEnvelope } from './envelope';

/**
 * The transactional outbox, kept inside the changed document itself: the state change and its
 * events are one single-document write, so an acknowledged change always has its events recorded,
 * without multi-document transactions. Pending events live under `outbox.<eventId>` with a counter
 * `outboxCount` the relay indexes; the relay removes each event once Kafka has it.
 */
export interface OutboxFields {
  outbox?: Record<string, EventEnvelope>;
  outboxCount?: number;
}

/** Fields for a document being inserted together with its events. */
export function outboxOnInsert(events: EventEnvelope[]): Required<OutboxFields> {
  return { outbox: Object.fromEntries(events.map((e) => [e.id, e])), outboxCount: events.length };
}

/** Update operators that append events to a document in the same update as its change. */
export function outboxOnUpdate(events: EventEnvelope[]): { $set: Record<string, EventEnvelope>; $inc: { outboxCount: number } } {
  return {
    $set: Object.fromEntries(events.map((e) => [`outbox.${e.id}`, e])),
    $inc: { outboxCount: events.length },
  };
}

/** Merges outbox operators into an update that also sets other fields. */
export function withOutbox(update: { $set?: Record<string, unknown>; [op: string]: unknown }, events: EventEnvelope[]) {
  if (!events.length) return update;
  const ob = outboxOnUpdate(events);
  const inc = { ...((update.$inc as Record<string, number>) ?? {}), ...ob.$inc };
  return { ...update, $set: { ...(update.$set ?? {}), ...ob.$set }, $inc: inc };
}

export const OUTBOX_INDEX = { key: { outboxCount: 1 }, name: 'outbox_pending' };
