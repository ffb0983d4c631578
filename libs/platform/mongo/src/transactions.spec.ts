import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { newMongoClient } from './mongo';
import { transactionsRelayingEvents } from './transactions';

// Against the real local replica set.
describe('transactionsRelayingEvents', () => {
  const dbName = `tx_relay_${randomBytes(4).toString('hex')}`;
  let client: MongoClient;

  beforeAll(async () => {
    client = await newMongoClient(process.env.BINDERY_TEST_MONGODB_URL!).connect();
    await client.db(dbName).createCollection('outbox');
  });
  afterAll(async () => {
    await client.db(dbName).dropDatabase();
    await client.close();
  });

  it('wakes the relay once the transaction committed, when its writes are visible', async () => {
    const db = client.db(dbName);
    // what the relay would read when woken: the outbox as committed
    const readsAtWake: Array<Promise<number>> = [];
    const transaction = transactionsRelayingEvents(db, () => readsAtWake.push(db.collection('outbox').countDocuments({ batch: 'a' })));
    const answer = await transaction(async (session) => {
      await db.collection('outbox').insertMany([{ batch: 'a' }, { batch: 'a' }], { session });
      expect(readsAtWake).toHaveLength(0);
      return 'done';
    });
    expect(answer).toBe('done');
    expect(await Promise.all(readsAtWake)).toEqual([2]);
  });

  it('does not wake the relay when the transaction fails, and leaves nothing behind', async () => {
    const db = client.db(dbName);
    let woken = 0;
    const transaction = transactionsRelayingEvents(db, () => (woken += 1));
    await expect(
      transaction(async (session) => {
        await db.collection('outbox').insertOne({ batch: 'b' }, { session });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(woken).toBe(0);
    expect(await db.collection('outbox').countDocuments({ batch: 'b' })).toBe(0);
  });
});
