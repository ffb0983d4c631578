import { randomBytes } from 'node:crypto';
import { CONSUMER_FETCH_WAIT_MS, createKafka, defineEvent, ensureTopics, EventEnvelope, eventHandlers, on, topicOf } from '@bindery/platform/events';
import { connectEventsAdmin, EventsAdminClient, grpcHealth } from '@bindery/platform/grpc';
import { connectMongo, Db, sessionOf } from '@bindery/platform/mongo';
import { defineService, loadServiceConfig, startService } from './descriptor';
import { RunningService } from './service-runtime';

/**
 * The consumers of a probe service, against the real broker and replica set: apply-once, retries,
 * dead letters and their replay, marker expiry, and health while catching up.
 */
interface Counted {
  counter: string;
}
const counted = defineEvent<Counted>('probe.item.counted', { toJSON: (m) => m, fromJSON: (o) => ({ counter: String((o as Counted).counter) }) });

/** What the test makes the handler do, and what it saw. */
const behaviour = {
  /** event ids whose handler throws once, after its write */
  crashOnceAfterWrite: new Set<string>(),
  /** counters whose handler always throws */
  poisoned: new Set<string>(),
  /** handler runs per event id */
  calls: new Map<string, number>(),
  /** every handler run waits for this */
  gate: Promise.resolve(),
};

const GROUP = 'probe.count';
const probeService = defineService({
  name: 'probe',
  settings: {},
  indexes: {},
  outboxCollections: [],
  deps: ({ db }) => ({ db }),
  grpc: () => [],
  consumers: ({ db }) => ({
    [GROUP]: {
      from: ['probe-source'],
      handlers: eventHandlers(
        on(counted, async (d, e, ctx) => {
          behaviour.calls.set(e.id, (behaviour.calls.get(e.id) ?? 0) + 1);
          await behaviour.gate;
          if (behaviour.poisoned.has(d.counter)) throw new Error(`${d.counter} cannot be counted`);
          await db.collection<{ _id: string; n: number }>('counts').updateOne({ _id: d.counter }, { $inc: { n: 1 } }, { upsert: true, session: sessionOf(ctx) });
          if (behaviour.crashOnceAfterWrite.delete(e.id)) throw new Error('crashed after the write');
        }),
      ),
    },
  }),
});

// The test tier's harness (shared/testing) starts services through this library, so it cannot be used here.
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

interface ProbeUnderTest {
  address: string;
  running: RunningService<{ db: Db }>;
  stop(): Promise<void>;
}

/** The probe service on a free port with a fresh database (dropped by `stop`). */
async function startProbe(settings: Record<string, string>): Promise<ProbeUnderTest> {
  const database = `probe_${randomBytes(4).toString('hex')}`;
  const env = { ...infra(), LOG_LEVEL: 'warn', ...settings };
  const running = await startService(probeService, loadServiceConfig(probeService, { name: 'probe', kind: 'grpc', port: 0, database }, env));
  return {
    address: `127.0.0.1:${running.port}`,
    running,
    async stop() {
      await running.stop();
      const mongo = await connectMongo(env.MONGODB_URL, database, 'tests');
      await mongo.db.dropDatabase();
      await mongo.close();
    },
  };
}

const admin = { userId: 'admin', isInstanceAdmin: true };
const user = { userId: 'someone', isInstanceAdmin: false };

function harness() {
  const ns = `p${randomBytes(4).toString('hex')}.`;
  const topic = `${ns}${topicOf('probe-source')}`;
  const kafka = createKafka(infra().KAFKA_BROKERS.split(','), 'probe-test');
  const producer = kafka.producer();
  return {
    ns,
    async open() {
      await ensureTopics(kafka, [topic]);
      await producer.connect();
    },
    /** Publishes envelopes under one key (one partition, in order). */
    async publish(events: EventEnvelope[], key = 'lane') {
      await producer.send({ topic, acks: -1, messages: events.map((e) => ({ key, value: JSON.stringify(e) })) });
    },
    close: () => producer.disconnect(),
  };
}

const event = (counter: string) => counted.create('probe-source', 'lane', { counter });
const countOf = async (db: Db, counter: string) => (await db.collection<{ _id: string; n: number }>('counts').findOne({ _id: counter }))?.n ?? 0;

describe('consumers apply each event once, and dead-letter what keeps failing', () => {
  const kafka = harness();
  let service: ProbeUnderTest;
  let db: Db;
  let eventsAdmin: EventsAdminClient;

  beforeAll(async () => {
    await kafka.open();
    service = await startProbe({ KAFKA_NAMESPACE: kafka.ns, EVENT_HANDLER_ATTEMPTS: '3', EVENT_RETRY_BACKOFF_MS: '20' });
    db = service.running.deps.db;
    eventsAdmin = connectEventsAdmin(service.address, 5000);
  });
  afterAll(async () => {
    eventsAdmin?.close();
    await service?.stop();
    await kafka.close();
  });

  test('a handler that fails after its write leaves no partial write: the retry applies it exactly once', async () => {
    const e = event('crash');
    behaviour.crashOnceAfterWrite.add(e.id);
    await kafka.publish([e]);
    await eventually(async () => expect(behaviour.calls.get(e.id)).toBe(2));
    await eventually(async () => expect(await countOf(db, 'crash')).toBe(1));
    expect(await db.collection('processed_events').countDocuments({ _id: `${kafka.ns}${GROUP}:${e.id}` as never })).toBe(1);
  });

  test('a duplicate delivery is applied once (the handler does not even run again)', async () => {
    const e = event('dup');
    const after = event('after-dup');
    await kafka.publish([e, e, after]);
    await eventually(async () => expect(await countOf(db, 'after-dup')).toBe(1));
    expect(await countOf(db, 'dup')).toBe(1);
    expect(behaviour.calls.get(e.id)).toBe(1);
    // Skipped as applied, not failed: no dead letter for the second delivery.
    expect((await eventsAdmin.listDeadLetters({ page: { page: '', limit: 10 } }, { caller: admin })).page?.count).toBe(0);
  });

  test('a poison event is dead-lettered after N tries while the events behind it in its partition are applied', async () => {
    behaviour.poisoned.add('poison');
    const poison = event('poison');
    const behind = Array.from({ length: 20 }, () => event('behind-poison'));
    await kafka.publish([poison, ...behind]);
    await eventually(async () => expect(await countOf(db, 'behind-poison')).toBe(20));
    expect(behaviour.calls.get(poison.id)).toBe(3);
    const list = await eventsAdmin.listDeadLetters({ page: { page: '', limit: 10 } }, { caller: admin });
    expect(list.page?.count).toBe(1);
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({ consumer: `${kafka.ns}${GROUP}`, topic: `${kafka.ns}${topicOf('probe-source')}`, attempts: 3, error: 'Error: poison cannot be counted' });
    expect(JSON.parse(list.items[0].eventJson)).toEqual(poison);
    expect(Number(list.items[0].offset)).toBeGreaterThanOrEqual(0);
  });

  test('a dead letter is seen and replayed by instance admins only; a replay that fails again keeps it', async () => {
    const [letter] = (await eventsAdmin.listDeadLetters({ page: { page: '', limit: 10 } }, { caller: admin })).items;
    await expect(eventsAdmin.listDeadLetters({ page: { page: '', limit: 10 } }, { caller: user })).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(eventsAdmin.listDeadLetters({ page: { page: '', limit: 10 } })).rejects.toMatchObject({ kind: 'unauthenticated' });
    await expect(eventsAdmin.replayDeadLetter({ id: letter.id }, { caller: user })).rejects.toMatchObject({ kind: 'forbidden' });

    await expect(eventsAdmin.replayDeadLetter({ id: letter.id }, { caller: admin })).rejects.toMatchObject({ kind: 'conflict' });
    const kept = (await eventsAdmin.listDeadLetters({ page: { page: '', limit: 10 } }, { caller: admin })).items[0];
    expect(kept.attempts).toBe(4);

    behaviour.poisoned.delete('poison');
    expect(await eventsAdmin.replayDeadLetter({ id: letter.id }, { caller: admin })).toEqual({ applied: true });
    expect(await countOf(db, 'poison')).toBe(1);
    expect((await eventsAdmin.listDeadLetters({ page: { page: '', limit: 10 } }, { caller: admin })).page?.count).toBe(0);
    await expect(eventsAdmin.replayDeadLetter({ id: letter.id }, { caller: admin })).rejects.toMatchObject({ kind: 'not_found' });
  });

  test('dead letters are listed in keyset pages', async () => {
    behaviour.poisoned.add('paged');
    // Earlier tests of this file left dead letters of their own: these come after them.
    const before = (await eventsAdmin.listDeadLetters({ page: { page: '', limit: 1 } }, { caller: admin })).page?.count ?? 0;
    const poisons = [event('paged'), event('paged'), event('paged')];
    await kafka.publish(poisons);
    await eventually(async () => expect((await eventsAdmin.listDeadLetters({ page: { page: '', limit: 2 } }, { caller: admin })).page?.count).toBe(before + 3));
    const walked: string[] = [];
    let page = '';
    for (;;) {
      const r = await eventsAdmin.listDeadLetters({ page: { page, limit: 2 } }, { caller: admin });
      expect(r.page?.count).toBe(before + 3);
      walked.push(...r.items.map((l) => JSON.parse(l.eventJson).id as string));
      if (!r.page?.nextPage) break;
      expect(r.items).toHaveLength(2);
      page = r.page.nextPage;
    }
    expect(walked).toHaveLength(before + 3);
    expect(walked.slice(-3)).toEqual(poisons.map((p) => p.id));
    behaviour.poisoned.delete('paged');
  });

  test('applied-event markers expire after longer than a topic keeps events', async () => {
    const indexes = await db.collection('processed_events').listIndexes().toArray();
    expect(indexes.find((i) => i.name === 'expire_markers')).toMatchObject({ key: { at: 1 }, expireAfterSeconds: 14 * 24 * 3600 });
  });

  test(
    'a consumer proves it is alive by completing a fetch at least every fetch wait when idle',
    async () => {
      const health = service.running.consumers.health()[`${kafka.ns}${GROUP}`];
      const seen = health.lastFetchAt;
      expect(seen).toBeGreaterThan(0);
      await eventually(async () => expect(health.lastFetchAt).toBeGreaterThan(seen), CONSUMER_FETCH_WAIT_MS + 2000, 50);
      expect(health.caughtUp).toBe(true);
      // the wait above may take a whole fetch wait (5 s): the test's own budget must hold it
    },
    CONSUMER_FETCH_WAIT_MS + 5000,
  );
});

describe('a service reports SERVING only once its consumers caught up', () => {
  const kafka = harness();
  let service: ProbeUnderTest;
  let open: () => void = () => undefined;

  beforeAll(async () => {
    await kafka.open();
    behaviour.gate = new Promise((resolve) => (open = resolve));
    await kafka.publish(Array.from({ length: 5 }, () => event('backlog')));
    service = await startProbe({ KAFKA_NAMESPACE: kafka.ns });
  });
  afterAll(async () => {
    open();
    behaviour.gate = Promise.resolve();
    await service?.stop();
    await kafka.close();
  });

  test('NOT_SERVING while the backlog present at start is being applied, SERVING after', async () => {
    const serving = grpcHealth(service.address);
    const health = service.running.consumers.health()[`${kafka.ns}${GROUP}`];
    // The handler is held on the first backlog event: the consumer joined but has not caught up.
    await eventually(async () => expect([...behaviour.calls.values()].length).toBeGreaterThan(0));
    expect(await serving()).toBe(false);
    expect(health.caughtUp).toBe(false);
    open();
    await eventually(async () => expect(await countOf(service.running.deps.db, 'backlog')).toBe(5));
    await eventually(async () => expect(await serving()).toBe(true));
    expect(health.caughtUp).toBe(true);
  });
});

describe('the wait for the consumers at start is bounded', () => {
  const kafka = harness();
  let service: ProbeUnderTest;
  let open: () => void = () => undefined;

  beforeAll(async () => {
    await kafka.open();
    behaviour.gate = new Promise((resolve) => (open = resolve));
    await kafka.publish([event('held')]);
    service = await startProbe({ KAFKA_NAMESPACE: kafka.ns, CONSUMER_CATCH_UP_MS: '300' });
  });
  afterAll(async () => {
    open();
    behaviour.gate = Promise.resolve();
    await service?.stop();
    await kafka.close();
  });

  test('a consumer held past the bound: the service reports SERVING anyway, its health still says behind', async () => {
    const serving = grpcHealth(service.address);
    await eventually(async () => expect(await serving()).toBe(true));
    expect(service.running.consumers.health()[`${kafka.ns}${GROUP}`].caughtUp).toBe(false);
    expect(await countOf(service.running.deps.db, 'held')).toBe(0);
  });
});
