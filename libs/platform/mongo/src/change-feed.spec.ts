import { randomBytes } from 'node:crypto';
import { connectMongo, MongoHandle } from './mongo';
import { ChangeFeed, CHANGE_STREAM_AWAIT_MS, watchChanges } from './change-feed';
import { ReadCache } from './read-cache';

/** What the feed reported, and a promise of the n-th report. */
function reports() {
  const seen: string[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  return {
    seen,
    add(entry: string) {
      seen.push(entry);
      waiters.filter((w) => seen.length >= w.n).forEach((w) => w.resolve());
    },
    reached: (n: number) => new Promise<void>((resolve) => (seen.length >= n ? resolve() : waiters.push({ n, resolve }))),
  };
}

// Against the real local replica set: another connection's writes reach the feed; the cache follows.
describe('change feed and read cache', () => {
  let mongo: MongoHandle;
  let writer: MongoHandle;
  let feed: ChangeFeed | undefined;
  const dbName = `feed_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    mongo = await connectMongo(process.env.BINDERY_TEST_MONGODB_URL!, dbName, 'test');
    writer = await connectMongo(process.env.BINDERY_TEST_MONGODB_URL!, dbName, 'test-writer');
  });
  afterAll(async () => {
    await feed?.close();
    await mongo.db.dropDatabase();
    await Promise.all([mongo.close(), writer.close()]);
  });

  it('reports inserts, updates and deletes of the watched collections only, and keeps a cache fresh', async () => {
    const feedReports = reports();
    const { seen } = feedReports;
    const cache = new ReadCache<number | undefined>({ ttlMs: 60000, maxEntries: 10, enabled: () => feed?.live === true });
    feed = watchChanges(
      mongo.db,
      ['watched'],
      (collection, id) => {
        feedReports.add(`${collection}:${String(id)}`);
        cache.invalidate(String(id));
      },
      () => cache.clear(),
    );
    await feed.whenLive();

    const col = writer.db.collection<{ _id: string; n: number }>('watched');
    const read = () => cache.get('a', async () => (await mongo.db.collection<{ _id: string; n: number }>('watched').findOne({ _id: 'a' }))?.n);
    await col.insertOne({ _id: 'a', n: 1 });
    await writer.db.collection('ignored').insertOne({ _id: 'b' } as never);
    await feedReports.reached(1);
    expect(await read()).toBe(1);
    expect(cache.size).toBe(1);

    await col.updateOne({ _id: 'a' }, { $set: { n: 2 } });
    await feedReports.reached(2);
    expect(await read()).toBe(2);

    await col.deleteOne({ _id: 'a' });
    await feedReports.reached(3);
    expect(await read()).toBeUndefined();
    expect(seen).toEqual(['watched:a', 'watched:a', 'watched:a']);
  });

  it('closes an idle stream at once, without waiting out its long server-side wait', async () => {
    expect(CHANGE_STREAM_AWAIT_MS).toBeGreaterThanOrEqual(10_000);
    const idle = watchChanges(
      mongo.db,
      ['quiet'],
      () => undefined,
      () => undefined,
    );
    await idle.whenLive();
    // Let the first getMore reach the server and wait there.
    await writer.db.collection('elsewhere').insertOne({ _id: 'x' } as never);
    const t0 = Date.now();
    await idle.close();
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});
