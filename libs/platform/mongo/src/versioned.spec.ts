import { randomBytes } from 'node:crypto';
import { Collection, MongoClient } from 'mongodb';
import { newMongoClient } from './mongo';
import { compareAndSet, updateIfVersion, Versioned } from './versioned';

interface Counter extends Versioned {
  n: number;
}

// Sixteen clients on one document is far beyond normal contention; 50 increments each keep all of
// them contending for the whole test (the unguarded run loses updates every time) while the suite
// stays short: the retries of contended writes multiply when the machine is busy.
const CLIENTS = 16;
const INCREMENTS = 50;

// Against the real local replica set: each of 16 clients has its own connection.
describe('compare-and-set on one document from 16 clients', () => {
  const dbName = `cas_${randomBytes(4).toString('hex')}`;
  let clients: MongoClient[];
  const counters = (name: string) => clients.map((c) => c.db(dbName).collection<Counter>(name));

  beforeAll(async () => {
    clients = await Promise.all(Array.from({ length: CLIENTS }, () => newMongoClient(process.env.BINDERY_TEST_MONGODB_URL!, { maxPoolSize: 1 }).connect()));
  });
  afterAll(async () => {
    await clients[0].db(dbName).dropDatabase();
    await Promise.all(clients.map((c) => c.close()));
  });

  const run = (cols: Array<Collection<Counter>>, increment: (col: Collection<Counter>) => Promise<void>) =>
    Promise.all(
      cols.map(async (col) => {
        for (let i = 0; i < INCREMENTS; i++) await increment(col);
      }),
    );

  // Longer than the tier: 800 contended read-decide-write transactions.
  it('counts every one of 16 × 50 read-decide-write increments', async () => {
    const cols = counters('guarded');
    await cols[0].insertOne({ _id: 'c', n: 0 });
    // Sixteen writers on one document is far beyond normal contention: allow each many more attempts.
    await run(cols, (col) => compareAndSet(col, 'c', (doc) => ({ update: { $set: { n: doc!.n + 1 } }, result: undefined }), { maxAttempts: 10_000 }));
    const doc = await cols[0].findOne({ _id: 'c' });
    expect(doc).toMatchObject({ n: CLIENTS * INCREMENTS, version: CLIENTS * INCREMENTS });
    // A correctness test, not a timed one: 800 contended writes take seconds alone, up to a minute on
    // 2 cores busy with the rest of the suite.
  }, 600_000);

  // Longer than the tier: the same 800 increments, unguarded.
  it('is what makes the difference: the same increments as read-then-write lose updates', async () => {
    const cols = counters('unguarded');
    await cols[0].insertOne({ _id: 'c', n: 0 });
    await run(cols, async (col) => {
      const doc = await col.findOne({ _id: 'c' });
      await col.updateOne({ _id: 'c' }, { $set: { n: doc!.n + 1 } });
    });
    const doc = await cols[0].findOne({ _id: 'c' });
    expect(doc!.n).toBeLessThan(CLIENTS * INCREMENTS);
  }, 600_000);

  it('lets exactly one of four writers that read the same version win', async () => {
    const cols = counters('winners');
    let multiple = 0;
    for (let round = 0; round < 20; round++) {
      await cols[0].deleteMany({});
      await cols[0].insertOne({ _id: 'c', n: 0 });
      const wins = await Promise.all(cols.slice(0, 4).map((col, i) => updateIfVersion(col, 'c', 0, { $set: { n: i + 1 } })));
      if (wins.filter(Boolean).length !== 1) multiple++;
    }
    expect(multiple).toBe(0);
  });
});
