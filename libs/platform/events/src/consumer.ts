import { Admin, Consumer, Kafka, KafkaMessage } from 'kafkajs';
import { logger, SpanKind, withRemoteParent } from '@bindery/platform/telemetry';
import { parseEnvelope } from './envelope';
import { applyEvent, BatchHandler, EventHandlers, ProcessedEvents } from './apply-once';
import { DeadLetterStore } from './dead-letters';
import { ConsumerHealth, PartitionProgress } from './consumer-health';
import type { EndOffsets } from './consumer-liveness';
import { FetchSockets } from './fetch-sockets';
import { kafkaLike } from './kafka';
import { DEFAULT_RETRY, errorText, RetryPolicy, withRetries } from './retry';

export interface ConsumerOptions {
  kafka: Kafka;
  groupId: string;
  topics: string[];
  handlers: EventHandlers;
  /** where applied events are remembered; `EVERY_DELIVERY` for handlers idempotent by nature (no store) */
  processed: ProcessedEvents;
  /** where events the handler kept failing on go; without a store they are logged and skipped */
  deadLetters?: DeadLetterStore;
  /**
   * Where a group with no committed offset starts: at the earliest event kept (the default, so a new
   * projection sees the whole history) or, when false, at the end (a cache that only needs what
   * happens from now on).
   */
  fromBeginning?: boolean;
  retry?: RetryPolicy;
  /**
   * Called after an event's transaction committed: handlers that recorded events of their own woke
   * the outbox relay before the commit, when it could not see them yet.
   */
  applied?: () => void;
  /** how long a fetch waits on the broker for records before answering empty (default CONSUMER_FETCH_WAIT_MS) */
  fetchWaitMs?: number;
  /**
   * Applies a fetched batch of a partition, up to `batchMaxEvents` events at a time, in one
   * transaction with their markers (the store's `applyManyOnce`); a batch that fails is applied one
   * event at a time by `handlers`, with their retries and dead letters.
   */
  batch?: BatchHandler;
  batchMaxEvents?: number;
}

/** The most events a batch handler is given in one transaction. */
export const CONSUMER_BATCH_MAX_EVENTS = 100;

/**
 * An idle consumer's fetch waits this long on the broker (records are delivered as they arrive,
 * whatever the wait): one request per broker every 5 s when nothing happens. A stop does not wait
 * for it (fetch-sockets.ts).
 */
export const CONSUMER_FETCH_WAIT_MS = 5000;

export interface RunningConsumer {
  consumer: Consumer;
  health: ConsumerHealth;
  /** where each partition of the consumer's topics ends now, asked of the broker (for ConsumerLiveness) */
  endOffsets: EndOffsets;
  /** leaves the group; a retry under way stops at its next pause and its event is delivered again later */
  stop(): Promise<void>;
}

/**
 * Where the group stands on each assigned partition (its committed offset, or, when it has none,
 * the earliest one kept or the end, as the group starts) and where each partition ends now.
 */
async function measure(admin: Admin, groupId: string, assignment: Record<string, number[]>, fromBeginning: boolean) {
  const topics = Object.keys(assignment);
  if (!topics.length) return [];
  const committed = await admin.fetchOffsets({ groupId, topics });
  const out: Array<{ topic: string; partition: number; position: number; end: number }> = [];
  for (const topic of topics) {
    const offsets = await admin.fetchTopicOffsets(topic);
    const group = committed.find((c) => c.topic === topic)?.partitions ?? [];
    for (const partition of assignment[topic]) {
      const o = offsets.find((x) => x.partition === partition);
      if (!o) continue;
      const c = Number(group.find((x) => x.partition === partition)?.offset ?? '-1');
      out.push({ topic, partition, position: c >= 0 ? c : Number(fromBeginning ? o.low : o.high), end: Number(o.high) });
    }
  }
  return out;
}

/**
 * Consumes topics and applies each event once per consumer group: the handler's writes and the
 * applied-event marker commit in one transaction (see apply-once.ts), so a redelivery finds the
 * marker and a crash before the commit leaves nothing behind. A failing handler is tried
 * `retry.attempts` times with a growing pause; then the event goes to the dead letters with its
 * error and position, and the partition moves on. Each handler runs in a span continuing the trace
 * recorded in the envelope.
 */
export async function startConsumer(options: ConsumerOptions): Promise<RunningConsumer> {
  const { kafka, groupId, topics, handlers, processed, deadLetters } = options;
  const retry = options.retry ?? DEFAULT_RETRY;
  const fromBeginning = options.fromBeginning ?? true;
  // The consumer gets a client of its own, whose fetch connections a stop can end at once.
  const sockets = new FetchSockets();
  const own = kafkaLike(kafka, sockets.factory) ?? kafka;
  const consumer = own.consumer({
    groupId,
    sessionTimeout: 10000,
    heartbeatInterval: 1000,
    maxWaitTimeInMs: options.fetchWaitMs ?? CONSUMER_FETCH_WAIT_MS,
    retry: { retries: 10 },
  });
  const progress = new PartitionProgress();
  const admin = kafka.admin();
  let stopping = false;

  consumer.on(consumer.events.FETCH, () => progress.fetched());
  consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => progress.batchDone(payload.topic, payload.partition, Number(payload.lastOffset), Number(payload.highWatermark)));
  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    progress.assign(payload.memberAssignment);
    measure(admin, groupId, payload.memberAssignment, fromBeginning).then(
      (positions) => progress.measured(positions),
      (err) => logger.warn('could not measure consumer positions', { groupId, error: errorText(err) }),
    );
  });

  await admin.connect();
  await consumer.connect();
  await consumer.subscribe({ topics, fromBeginning });
  const applyOne = async (topic: string, partition: number, message: KafkaMessage, heartbeat: () => Promise<void>) => {
    const event = parseEnvelope(message.value);
    if (!event) {
      logger.warn('skipping a message that is not an event envelope', { groupId, topic, partition, offset: message.offset });
      return;
    }
    const handler = handlers[event.type];
    if (!handler) return;
    await withRemoteParent(`consume ${event.type}`, event, SpanKind.CONSUMER, async () => {
      const outcome = await withRetries(retry, () => applyEvent(processed, groupId, handler, event), { between: heartbeat, giveUp: () => stopping });
      if (outcome.ok) {
        if (outcome.value) {
          options.applied?.();
          logger.info('event applied', { groupId, eventId: event.id, type: event.type, attempts: outcome.attempts });
        }
        return;
      }
      // Recorded before the offset is committed: if this write fails, the message is delivered again.
      await deadLetters?.add({ consumer: groupId, event, topic, partition, offset: message.offset, attempts: outcome.attempts, error: errorText(outcome.error) });
      logger.error(deadLetters ? 'event dead-lettered' : 'event skipped after failed attempts (no dead-letter store)', {
        groupId,
        eventId: event.id,
        type: event.type,
        topic,
        partition,
        offset: message.offset,
        error: errorText(outcome.error),
      });
    });
  };

  const batch = options.batch;
  const applyMany = processed.applyManyOnce?.bind(processed);
  if (batch && applyMany) {
    const maxEvents = options.batchMaxEvents ?? CONSUMER_BATCH_MAX_EVENTS;
    await consumer.run({
      // Offsets are resolved here as messages are applied: a stop in the middle commits no more than that.
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch: fetched, resolveOffset, heartbeat, isRunning, isStale }) => {
        const { topic, partition } = fetched;
        for (let from = 0; from < fetched.messages.length; from += maxEvents) {
          if (!isRunning() || isStale() || stopping) return;
          const chunk = fetched.messages.slice(from, from + maxEvents);
          const parsed = chunk.map((m) => parseEnvelope(m.value));
          const events = parsed.flatMap((e) => (e && handlers[e.type] ? [e] : []));
          // A handler that runs outside transactions cannot join one: such a chunk is applied one event at a time.
          const together = events.every((e) => !handlers[e.type].idempotentOutsideTransaction);
          let done = false;
          if (events.length && together) {
            try {
              const fresh = await applyMany(
                groupId,
                events.map((e) => e.id),
                async (ids, context) => {
                  const once = new Set<string>();
                  await batch(
                    events.filter((e) => ids.has(e.id) && !once.has(e.id) && once.add(e.id)),
                    context,
                  );
                },
              );
              done = true;
              if (fresh.length) {
                options.applied?.();
                logger.info('events applied', { groupId, topic, partition, events: fresh.length, fetched: chunk.length });
              }
            } catch (err) {
              // Nothing of the chunk committed: each event is applied alone, with its retries and dead letter.
              logger.warn('a batch failed; applying its events one at a time', { groupId, topic, partition, events: events.length, error: errorText(err) });
            }
          }
          if (done) {
            const strays = chunk.filter((_, i) => !parsed[i]).map((m) => m.offset);
            if (strays.length) logger.warn('skipping messages that are not event envelopes', { groupId, topic, partition, offsets: strays });
            resolveOffset(chunk[chunk.length - 1].offset);
          } else {
            for (const message of chunk) {
              if (!isRunning() || isStale() || stopping) return;
              await applyOne(topic, partition, message, heartbeat);
              resolveOffset(message.offset);
            }
          }
          await heartbeat();
        }
      },
    });
  } else {
    await consumer.run({ eachMessage: async ({ topic, partition, message, heartbeat }) => applyOne(topic, partition, message, heartbeat) });
  }
  const endOffsets: EndOffsets = async () => {
    const all = await Promise.all(topics.map(async (topic) => ({ topic, offsets: await admin.fetchTopicOffsets(topic) })));
    return all.flatMap(({ topic, offsets }) => offsets.map((o) => ({ topic, partition: o.partition, end: Number(o.high) })));
  };
  return {
    consumer,
    health: progress,
    endOffsets,
    async stop() {
      stopping = true;
      // kafkajs waits for the fetch under way before it leaves the group: the disconnect has marked
      // the consumer stopping (it fetches no more), so ending that fetch now leaves at once.
      const disconnected = consumer.disconnect().catch(() => undefined);
      sockets.endFetches();
      await disconnected;
      await admin.disconnect().catch(() => undefined);
    },
  };
}
