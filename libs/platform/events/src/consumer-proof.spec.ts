import { randomBytes } from 'node:crypto';
import { EVERY_DELIVERY } from './apply-once';
import { RunningConsumer, startConsumer } from './consumer';
import { ConsumerLiveness } from './consumer-liveness';
import { newEvent } from './envelope';
import { createKafka, ensureTopics } from './kafka';

const brokers = () => {
  const b = process.env.BINDERY_TEST_KAFKA_BROKERS;
  if (!b) throw new Error('the test infrastructure is not up (run jest with the infra preset)');
  return b.split(',');
};

async function eventually(check: () => Promise<void>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

/** The proof of being current against the real broker: the end offsets are asked when the question comes. */
describe('a consumer proves it is current from the broker', () => {
  const kafka = createKafka(brokers(), 'proof-test');
  const topic = `t${randomBytes(4).toString('hex')}.bindery.probe.v1`;
  const producer = kafka.producer();
  let consumer: RunningConsumer | undefined;
  let release: () => void = () => undefined;
  let gate = Promise.resolve();

  beforeAll(async () => {
    await ensureTopics(kafka, [topic], 2);
    await producer.connect();
  });
  afterAll(async () => {
    await consumer?.stop();
    await producer.disconnect();
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
  });

  it('is current when caught up, behind while an event is being applied, current again after it', async () => {
    const applied: string[] = [];
    consumer = await startConsumer({
      kafka,
      groupId: `${topic}.proof`,
      topics: [topic],
      processed: EVERY_DELIVERY,
      handlers: {
        'probe.item.touched': async (e) => {
          await gate;
          applied.push(e.subject);
        },
      },
    });
    const liveness = new ConsumerLiveness({ cacheMs: 0 });
    liveness.attach(consumer.health, consumer.endOffsets);
    await consumer.health.startedUp;
    await eventually(async () => expect(await liveness.isCurrent()).toBe(true), 10_000);

    gate = new Promise((resolve) => (release = resolve));
    await producer.send({ topic, acks: -1, messages: [{ key: 'a', value: JSON.stringify(newEvent('probe', 'probe.item.touched', 'a', {})) }] });
    // The broker has the event, the handler has not finished it: not current, at once.
    expect(await liveness.isCurrent()).toBe(false);
    release();
    await eventually(async () => expect(await liveness.isCurrent()).toBe(true), 10_000);
    expect(applied).toEqual(['a']);
  }, 30_000);

  it('a stop does not wait out a long fetch', async () => {
    const t0 = Date.now();
    await consumer!.stop();
    consumer = undefined;
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it('is not proven, quickly, when the broker cannot be reached', async () => {
    const nowhere = createKafka(['127.0.0.1:9'], 'proof-test-unreachable');
    const admin = nowhere.admin();
    const liveness = new ConsumerLiveness();
    liveness.attach({ applied: () => [{ topic, partition: 0, next: 0 }] }, async () => {
      const offsets = await admin.fetchTopicOffsets(topic);
      return offsets.map((o) => ({ topic, partition: o.partition, end: Number(o.high) }));
    });
    const t0 = Date.now();
    expect(await liveness.isCurrent()).toBe(false);
    expect(Date.now() - t0).toBeLessThan(500);
    await admin.disconnect().catch(() => undefined);
  });
});
