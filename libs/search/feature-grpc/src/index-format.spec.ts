import { startServiceUnderTest, ServiceUnderTest } from '@bindery/shared/testing';
import { upgradeIndexFormat } from './index-format';
import { SearchDeps, searchService } from './search-server';

describe('index format check (real MongoDB)', () => {
  let service: ServiceUnderTest<SearchDeps>;
  beforeAll(async () => {
    // content unreachable: a rebuild fails fast
    service = await startServiceUnderTest(searchService, { SEARCH_FORMAT_CHECK_MS: '86400000', CONTENT_GRPC_URL: '127.0.0.1:9', SEARCH_CONTENT_DEADLINE_MS: '1000' });
  });
  afterAll(() => service?.stop());

  test('one replica at a time: a live claim makes others wait, an expired one is taken over, a fresh index is marked', async () => {
    const { db, indexer } = service.running.deps;
    const meta = db.collection<{ _id: string; version?: number; leaseUntil?: Date }>('meta');
    await meta.insertOne({ _id: 'format', leaseUntil: new Date(Date.now() + 60000) });
    expect(await Promise.all([upgradeIndexFormat(db, indexer), upgradeIndexFormat(db, indexer)])).toEqual(['busy', 'busy']);
    expect(await meta.findOne({ _id: 'format' })).not.toHaveProperty('version');
    await meta.updateOne({ _id: 'format' }, { $set: { leaseUntil: new Date(Date.now() - 1000) } });
    const outcomes = await Promise.all([upgradeIndexFormat(db, indexer), upgradeIndexFormat(db, indexer)]);
    expect(outcomes.sort()).toEqual(['busy', 'current']);
    expect(await meta.findOne({ _id: 'format' })).toEqual({ _id: 'format', version: 2 });
    expect(await upgradeIndexFormat(db, indexer)).toBe('current');
  });

  test('an index of the first format is rebuilt; a rebuild that fails releases the claim and leaves the index unmarked', async () => {
    const { db, indexer } = service.running.deps;
    const meta = db.collection<{ _id: string; version?: number; leaseUntil?: Date }>('meta');
    await meta.deleteMany({});
    await db.collection('sections').createIndex({ terms: 1, spaceId: 1 }, { name: 'postings' });
    for (let i = 0; i < 2; i++) {
      // content cannot be reached: the claim is given back at once, so the next check (any replica) tries again
      await expect(upgradeIndexFormat(db, indexer)).rejects.toBeTruthy();
      expect(await meta.findOne({ _id: 'format' })).toEqual({ _id: 'format' });
      expect((await db.collection('sections').indexes()).map((x) => x.name)).toContain('postings');
    }
  });
});
