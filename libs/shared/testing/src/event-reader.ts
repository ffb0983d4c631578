import { randomBytes } from 'node:crypto';
import { createKafka, EventEnvelope, parseEnvelope } from '@bindery/platform/events';

/**
 * Reads a topic from the beginning with a throw-away consumer group until `done` says it has seen
 * enough (or the time is up), and returns the envelopes read.
 */
export async function readEvents(brokers: string[], topic: string, done: (events: EventEnvelope[]) => boolean, timeoutMs = 20000): Promise<EventEnvelope[]> {
  const kafka = createKafka(brokers, 'test-reader');
  const consumer = kafka.consumer({ groupId: `test-reader-${randomBytes(4).toString('hex')}` });
  const events: EventEnvelope[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    await consumer.run({
      eachMessage: async ({ message }) => {
        const e = parseEnvelope(message.value);
        if (e) events.push(e);
        if (done(events)) finish();
      },
    });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([finished, new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
    clearTimeout(timer);
    return events;
  } finally {
    await consumer.disconnect();
  }
}
