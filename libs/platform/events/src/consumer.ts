import { Consumer, Kafka } from 'kafkajs';
import { logger, SpanKind, withRemoteParent } from '@bindery/platform/telemetry';
import { EventEnvelope, parseEnvelope } from './envelope';

/** Remembers which events a consumer has applied (implemented on MongoDB with a unique index). */
export interface ProcessedEvents {
  has(consumer: string, eventId: string): Promise<boolean>;
  record(consumer: string, eventId: string): Promise<void>;
}

export type EventHandlers = Record<string, (event: EventEnvelope) => Promise<void>>;

/**
 * Consumes topics with idempotent handlers: an event already applied by this consumer group is
 * skipped, a handler failure is retried (the offset is not committed), and each handler runs in a
 * span continuing the trace recorded in the envelope.
 */
export async function startConsumer(options: { kafka: Kafka; groupId: string; topics: string[]; handlers: EventHandlers; processed: ProcessedEvents }): Promise<Consumer> {
  const { kafka, groupId, topics, handlers, processed } = options;
  // A short fetch wait: disconnecting waits for the fetch under way, so this bounds how long a stop takes.
  const consumer = kafka.consumer({ groupId, sessionTimeout: 10000, heartbeatInterval: 1000, maxWaitTimeInMs: 1000, retry: { retries: 10 } });
  await consumer.connect();
  await consumer.subscribe({ topics, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      const event = parseEnvelope(message.value);
      if (!event) {
        logger.warn('skipping a message that is not an event envelope', { groupId });
        return;
      }
      const handler = handlers[event.type];
      if (!handler) return;
      if (await processed.has(groupId, event.id)) return;
      await withRemoteParent(`consume ${event.type}`, event, SpanKind.CONSUMER, async () => {
        await handler(event);
        logger.info('event applied', { groupId, eventId: event.id, type: event.type });
      });
      await processed.record(groupId, event.id);
    },
  });
  return consumer;
}
