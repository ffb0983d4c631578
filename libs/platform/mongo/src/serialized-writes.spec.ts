import { randomBytes } from 'node:crypto';
import { connectMongo, MongoHandle } from './mongo';

// Against the real local server: concurrent updates of one document must all land.
describe('concurrent updates of one document', () => {
  let mongo: MongoHandle;
  beforeAll(async () => {
    mongo = await connectMongo(process.env.BINDERY_TEST_MONGODB_URL!, `writes_${randomBytes(4).toString('hex')}`, 'test');
  });
  afterAll(async () => {
    await mongo.db.dropDatabase();
    await mongo.close();
  });

  it('loses none of them (30 rounds of three concurrent updates)', async () => {
    const col = mongo.db.collection<{ _id: string; n: number; x?: number; y?: number }>('docs');
    let lost = 0;
    for (let i = 0; i < 30; i++) {
      await col.deleteMany({});
      await col.insertOne({ _id: 'a', n: 0 });
      await Promise.all([col.updateOne({ _id: 'a' }, { $set: { x: 1 } }), col.updateOne({ _id: 'a' }, { $set: { y: 1 } }), col.updateOne({ _id: 'a' }, { $inc: { n: 1 } })]);
      const d = await col.findOne({ _id: 'a' });
      if (!(d?.x === 1 && d?.y === 1 && d?.n === 1)) lost++;
    }
    expect(lost).toBe(0);
  });

  it('keeps reads, errors and other methods working through the wrapper', async () => {
    const col = mongo.db.collection<{ _id: string }>('others');
    await col.insertOne({ _id: 'x' });
    await expect(col.insertOne({ _id: 'x' })).rejects.toMatchObject({ code: 11000 });
    await col.insertOne({ _id: 'y' });
    expect(await col.countDocuments({})).toBe(2);
    expect(col.collectionName).toBe('others');
  });
});
