import { randomBytes } from 'node:crypto';
import { createKafka, defineEvent, ensureTopics, EventEnvelope, eventHandlers, on, topicOf } from '@bindery/platform/events';
import { connectMongo, Db, sessionOf } from '@bindery/platform/mongo';
import { defineService, loadServiceConfig, startService } from './descriptor';
import { RunningService } from './service-runtime';

/**
 * A consumer group with a batch handler, against the real broker and replica set: a fetched batch
 * is applied in one transaction, each event once (duplicates in it too), in partition order; a
 * batch that fails is applied one event at a time, the poison one dead-lettered.
 */
interface Noted {
  lane: string;
  n: number;
}
const noted = defineEvent<Noted>('probe.item.noted', { toJSON: (m) => m, fromJSON: (o) => ({ lane: String((o as Noted).lane), n: Number((o as Noted).n) }) });

const poisoned = new Set<number>();
/** the sizes of the batches the batch handler was given */
const batches: number[] = [];

const note = async (db: Db, d: Noted, session: unknown) => {
  if (poisoned.has(d.n)) throw new Error(`${d.n} cannot be noted`);
  await db.collection<{ _id: string; seen: number[] }>('notes').updateOne({ _id: d.lane }, { $push: { seen: d.n } }, { upsert: true, session: session as never });
};

const GROUP = 'probe.notes';
const probeService = defineService({
  name: 'probe',
  settings: {},
  indexes: {},
  outboxCollections: [],
  deps: ({ db }) => ({ db }),
  grpc: () => [],
  consumers: ({ db }) => ({
    [GROUP]: {
      from: ['probe-batch'],
      handlers: eventHandlers(on(noted, (d, _e, ctx) => note(db, d, sessionOf(ctx)))),
      batch: async (events, ctx) => {
        batches.push(events.length);
        for (const e of events) await note(db, noted.decode(e), sessionOf(ctx));
      },
    },
  }),
});

const infra = () => {
  const { BINDERY_TEST_MONGODB_URL: mongo, BINDERY_TEST_KAFKA_BROKERS: kafka } = process.env;
  if (!mongo || !kafka) throw new Error('the test infrastructure is not up (run jest with the infra preset)');
  return { MONGODB_URL: mongo, KAFKA_BROKERS: kafka };
};

async function eventually<T>(check: () => Promise<T>, timeoutMs = 15000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  }
}

describe('a consumer group with a batch handler', () => {
  const ns = `b${randomBytes(4).toString('hex')}.`;
  const topic = `${ns}${topicOf('probe-batch')}`;
  const kafka = createKafka(infra().KAFKA_BROKERS.split(','), 'probe-batch-test');
  const producer = kafka.producer();
  const database = `probe_${randomBytes(4).toString('hex')}`;
  let running: RunningService<{ db: Db }>;
  let db: Db;

  beforeAll(async () => {
    await ensureTopics(kafka, [topic]);
    await producer.connect();
    const env = { ...infra(), LOG_LEVEL: 'warn', KAFKA_NAMESPACE: ns, EVENT_HANDLER_ATTEMPTS: '2', EVENT_RETRY_BACKOFF_MS: '20' };
    running = await startService(probeService, loadServiceConfig(probeService, { name: 'probe', kind: 'grpc', port: 0, database }, env));
    db = running.deps.db;
  });
  afterAll(async () => {
    await running?.stop();
    await producer.disconnect();
    const mongo = await connectMongo(infra().MONGODB_URL, database, 'tests');
    await mongo.db.dropDatabase();
    await mongo.close();
  });

  const publish = (events: EventEnvelope[], key: string) => producer.send({ topic, acks: -1, messages: events.map((e) => ({ key, value: JSON.stringify(e) })) });
  const seen = async (lane: string) => (await db.collection<{ _id: string; seen: number[] }>('notes').findOne({ _id: lane }))?.seen ?? [];
  const events = (lane: string, ns: number[]) => ns.map((n) => noted.create('probe-batch', lane, { lane, n }));

  test('a fetched batch is applied in order, each event once, duplicates included', async () => {
    const sent = events('a', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    await publish([...sent.slice(0, 5), sent[2], ...sent.slice(5), sent[0]], 'a');
    await eventually(async () => expect(await seen('a')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
    expect(batches.some((n) => n > 1)).toBe(true);
    expect(await db.collection('processed_events').countDocuments({ _id: { $in: sent.map((e) => `${ns}${GROUP}:${e.id}`) } as never })).toBe(10);
  }, 20000);

  test('a batch that fails is applied one event at a time: the poison one is dead-lettered, the others applied in order', async () => {
    poisoned.add(103);
    await publish(events('b', [101, 102, 103, 104, 105]), 'b');
    await eventually(async () => expect(await seen('b')).toEqual([101, 102, 104, 105]));
    const letters = await running.consumers.deadLetters.page(undefined, 10);
    expect(letters.items.map((l) => [l.consumer, (l.event.data as Noted).n])).toEqual([[`${ns}${GROUP}`, 103]]);
  }, 20000);
});
