import { randomBytes } from 'node:crypto';
import { createKafka, defineEvent, ensureTopics, OutboxRelay, outboxOnInsert, topicOf, withOutbox } from '@bindery/platform/events';
import { connectMongo, MongoHandle, mongoOutboxStore } from '@bindery/platform/mongo';

/**
 * The outbox relay against the real replica set and broker: events another process records reach
 * Kafka without any kick and long before the relay's sweep (set to ten minutes here).
 */
const noted = defineEvent<{ n: number }>('probe.item.noted', { toJSON: (m) => m, fromJSON: (o) => o as { n: number } });

const infra = () => {
  const { BINDERY_TEST_MONGODB_URL: mongo, BINDERY_TEST_KAFKA_BROKERS: kafka } = process.env;
  if (!mongo || !kafka) throw new Error('the test infrastructure is not up (run jest with the infra preset)');
  return { mongo, kafka };
};

async function eventually<T>(check: () => Promise<T>, timeoutMs: number, intervalMs = 20): Promise<T> {
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

describe('outbox relay woken by the change stream', () => {
  const dbName = `relay_${randomBytes(4).toString('hex')}`;
  const topic = `r${randomBytes(4).toString('hex')}.${topicOf('probe')}`;
  const kafka = createKafka(infra().kafka.split(','), 'relay-test');
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  let mongo: MongoHandle;
  let writer: MongoHandle;
  let relay: OutboxRelay;

  beforeAll(async () => {
    mongo = await connectMongo(infra().mongo, dbName, 'relay');
    writer = await connectMongo(infra().mongo, dbName, 'another-process');
    await ensureTopics(kafka, [topic], 1);
    await producer.connect();
    relay = new OutboxRelay(mongoOutboxStore(mongo.db, ['items']), producer, topic, 600_000);
    relay.start();
    await relay.whenWatching();
  });
  afterAll(async () => {
    await relay.stop();
    await producer.disconnect();
    await mongo.db.dropDatabase();
    await Promise.all([mongo.close(), writer.close()]);
  });

  const pending = async (id: string) => (await mongo.db.collection<{ _id: string; outboxCount?: number }>('items').findOne({ _id: id }))?.outboxCount;

  it('relays an event inserted by another process, without a kick, within seconds', async () => {
    const items = writer.db.collection<{ _id: string }>('items');
    await items.insertOne({ _id: 'first', ...outboxOnInsert([noted.create('probe', 'first', { n: 1 })]) });
    await eventually(async () => expect(await pending('first')).toBe(0), 3000);
  });

  it('relays events another process adds to an existing document', async () => {
    const items = writer.db.collection<{ _id: string; n?: number }>('items');
    await items.updateOne({ _id: 'first' }, withOutbox({ $set: { n: 2 } }, [noted.create('probe', 'first', { n: 2 })]));
    await eventually(async () => expect(await pending('first')).toBe(0), 3000);
    expect((await mongo.db.collection<{ _id: string; n?: number }>('items').findOne({ _id: 'first' }))?.n).toBe(2);
  });
});
