import { randomBytes } from 'node:crypto';
import { applyEvent, EVERY_DELIVERY } from './apply-once';
import { startConsumer } from './consumer';
import { newEvent } from './envelope';
import { createKafka, ensureTopics } from './kafka';

describe('EVERY_DELIVERY (no apply-once store)', () => {
  it('runs the handler on every delivery of the same event and records nothing', async () => {
    const event = newEvent('test', 'test.item.touched', 'x', {});
    let runs = 0;
    const handler = async () => void runs++;
    expect(await applyEvent(EVERY_DELIVERY, 'g', handler, event)).toBe(true);
    expect(await applyEvent(EVERY_DELIVERY, 'g', handler, event)).toBe(true);
    expect(runs).toBe(2);
    expect(await EVERY_DELIVERY.has('g', event.id)).toBe(false);
  });

  it('passes on a handler failure (the consumer retries it)', async () => {
    const event = newEvent('test', 'test.item.touched', 'x', {});
    await expect(applyEvent(EVERY_DELIVERY, 'g', async () => Promise.reject(new Error('boom')), event)).rejects.toThrow('boom');
  });
});

/**
 * Against the real broker: a consumer that starts at the end (a cache: only what happens from now
 * on), without an apply-once store and without dead letters.
 */
describe('a consumer from the end, without stores', () => {
  const brokers = () => {
    const b = process.env.BINDERY_TEST_KAFKA_BROKERS;
    if (!b) throw new Error('the test infrastructure is not up (run jest with the infra preset)');
    return b.split(',');
  };

  it('skips what was published before it joined, applies what follows, and moves on past a failing event', async () => {
    const kafka = createKafka(brokers(), 'every-delivery-test');
    const topic = `t${randomBytes(4).toString('hex')}.bindery.probe.v1`;
    await ensureTopics(kafka, [topic], 1);
    const producer = kafka.producer();
    await producer.connect();
    const send = (subject: string) => producer.send({ topic, messages: [{ key: subject, value: JSON.stringify(newEvent('probe', 'probe.item.touched', subject, {})) }] });
    const seen: string[] = [];
    let consumer: Awaited<ReturnType<typeof startConsumer>> | undefined;
    try {
      await send('before');
      consumer = await startConsumer({
        kafka,
        groupId: `${topic}.reader-${randomBytes(3).toString('hex')}`,
        topics: [topic],
        fromBeginning: false,
        processed: EVERY_DELIVERY,
        retry: { attempts: 2, backoffMs: 10, maxBackoffMs: 10 },
        handlers: {
          'probe.item.touched': async (e) => {
            seen.push(e.subject);
            if (e.subject === 'poison') throw new Error('cannot');
          },
        },
      });
      // Joined and positioned at the end: nothing published before counts as lag.
      await consumer.health.startedUp;
      expect(consumer.health.caughtUp).toBe(true);
      // A fetch completed: the group's position (the end) is resolved.
      while (!consumer.health.lastFetchAt) await new Promise((r) => setTimeout(r, 20));
      await send('poison');
      await send('after');
      const deadline = Date.now() + 15000;
      while (!seen.includes('after') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(seen).toEqual(['poison', 'poison', 'after']);
    } finally {
      await consumer?.stop();
      await producer.disconnect();
      const admin = kafka.admin();
      await admin.connect();
      await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
      await admin.disconnect();
    }
  }, 40000);
});
