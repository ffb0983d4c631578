import { Consumer, Kafka } from 'kafkajs';
import { logger, SpanKind, withRemoteParent } from '@bindery/platform/telemetry';
import { EventEnvelope, parseEnvelope } from './envelope';
import { ConsumerLiveness } from './consumer-liveness';

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
export async function startConsumer(options: {
  kafka: Kafka;
  groupId: string;
  topics: string[];
  handlers: EventHandlers;
  processed: ProcessedEvents;
  /** kept up to date with whether this consumer is current (see ConsumerLiveness) */
  liveness?: ConsumerLiveness;
}): Promise<Consumer> {
  const { kafka, groupId, topics, handlers, processed, liveness } = options;
  // A short fetch wait: disconnecting waits for the fetch under way, so this bounds how long a stop takes.
  const consumer = kafka.consumer({ groupId, sessionTimeout: 10000, heartbeatInterval: 1000, maxWaitTimeInMs: 250, retry: { retries: 10 } });
  if (liveness) watchLiveness(consumer, liveness);
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

function watchLiveness(consumer: Consumer, liveness: ConsumerLiveness): void {
  const { FETCH, START_BATCH_PROCESS, END_BATCH_PROCESS, REBALANCING, CRASH, STOP, DISCONNECT } = consumer.events;
  consumer.on(FETCH, () => liveness.fetched());
  consumer.on(START_BATCH_PROCESS, (e) => liveness.batchStarted(e.payload.topic, e.payload.partition));
  consumer.on(END_BATCH_PROCESS, (e) => liveness.batchEnded(e.payload.topic, e.payload.partition, Number(e.payload.offsetLag)));
  for (const lost of [REBALANCING, CRASH, STOP, DISCONNECT]) consumer.on(lost, () => liveness.lost());
}
