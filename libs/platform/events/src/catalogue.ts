import { EventEnvelope, newEvent } from './envelope';
import type { ApplyContext, EventHandler, EventHandlers } from './apply-once';

/** The JSON codec ts-proto generates for an event's payload message. */
export interface PayloadCodec<T> {
  toJSON(message: T): unknown;
  fromJSON(object: unknown): T;
}

/** One kind of event: its type name paired with its payload codec, once. */
export interface EventDefinition<T> {
  type: string;
  /** A new envelope of this type; the payload goes through the codec (so it follows the contract). */
  create(source: string, subject: string, data: T, organization?: string): EventEnvelope;
  /** The payload of an envelope of this type. */
  decode(event: EventEnvelope): T;
}

export function defineEvent<T>(type: string, codec: PayloadCodec<T>): EventDefinition<T> {
  if (!/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*){2}$/.test(type)) throw new Error(`event type ${type} is not <service>.<noun>.<verb>`);
  return {
    type,
    create: (source, subject, data, organization) => newEvent(source, type, subject, codec.toJSON(data) as object, organization),
    decode: (event) => {
      if (event.type !== type) throw new Error(`expected a ${type} event, got ${event.type}`);
      return codec.fromJSON(event.data);
    },
  };
}

/** A handler bound to one event definition: it receives the decoded payload, the envelope and the transaction to write in. */
export interface EventHandlerEntry {
  type: string;
  handle: EventHandler;
}

/**
 * Binds a handler to an event type. Its writes must pass `sessionOf(context)` (platform/mongo) so
 * they commit with the applied-event marker; `options.idempotentOutsideTransaction` (the reason)
 * opts a handler out of the transaction (see apply-once.ts).
 */
export function on<T>(
  definition: EventDefinition<T>,
  handler: (data: T, event: EventEnvelope, context: ApplyContext) => Promise<unknown>,
  options: { idempotentOutsideTransaction?: string } = {},
): EventHandlerEntry {
  const handle = async (event: EventEnvelope, context: ApplyContext = {}) => void (await handler(definition.decode(event), event, context));
  return { type: definition.type, handle: Object.assign(handle, { idempotentOutsideTransaction: options.idempotentOutsideTransaction }) };
}

/** The handlers a consumer group runs, keyed by event type; a type handled twice is a mistake. */
export function eventHandlers(...entries: EventHandlerEntry[]): EventHandlers {
  const out: EventHandlers = {};
  for (const e of entries) {
    if (out[e.type]) throw new Error(`two handlers for ${e.type}`);
    out[e.type] = e.handle;
  }
  return out;
}
