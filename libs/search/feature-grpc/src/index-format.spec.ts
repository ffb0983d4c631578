import { randomBytes } from 'node:crypto';
import { connectMongo } from '@bindery/platform/mongo';
import type { RunRecord } from '@bindery/platform/runs';
import { eventually, FAST_RUN_SETTINGS, startServiceUnderTest, ServiceUnderTest, waitForRun } from '@bindery/shared/testing';
import { SearchDeps, searchService } from './search-server';

describe('index format check as a scheduled run (real MongoDB)', () => {
  let replicas: Array<ServiceUnderTest<SearchDeps>> = [];
  const start = (settings: Record<string, string>) =>
    // content unreachable: a rebuild fails fast
    startServiceUnderTest(searchService, { ...FAST_RUN_SETTINGS, CONTENT_GRPC_URL: '127.0.0.1:9', SEARCH_CONTENT_DEADLINE_MS: '1000', ...settings });
  afterEach(async () => {
    // The second replica shares the first one's database: stop it first, then drop with the first.
    for (const r of replicas.reverse()) await r.stop().catch(() => undefined);
    replicas = [];
  });

  test('two replicas: each occurrence is one run, executed once; a fresh index is marked', async () => {
    const run = randomBytes(4).toString('hex');
    const shared = { SEARCH_DB: `svc_search_pair_${run}`, KAFKA_NAMESPACE: `p${run}.`, SEARCH_FORMAT_CHECK_MS: '300' };
    replicas.push(await start(shared), await start(shared));
    const { db } = replicas[0].running.mongo;
    const runs = db.collection<RunRecord>('runs');
    await eventually(async () => expect(await runs.countDocuments({ kind: 'search.index-format', status: 'completed' })).toBeGreaterThanOrEqual(3));
    const done = await runs.find({ kind: 'search.index-format', status: 'completed' }).toArray();
    // One run per occurrence (its key names the slot), each claimed once.
    expect(new Set(done.map((r) => r.idempotencyKey)).size).toBe(done.length);
    expect(done.every((r) => r.attempt === 1 && r.result?.['outcome'] === 'current')).toBe(true);
    expect(await db.collection<{ _id: string }>('meta').findOne({ _id: 'format' })).toEqual({ _id: 'format', version: 2 });
  });

  test('an index of the first format whose rebuild fails stays unmarked, keeps its old index, and is tried again', async () => {
    // The database holds an index of the first format before the service starts.
    const SEARCH_DB = `svc_search_legacy_${randomBytes(4).toString('hex')}`;
    const mongo = await connectMongo(process.env.BINDERY_TEST_MONGODB_URL!, SEARCH_DB, 'tests');
    await mongo.db.collection('sections').createIndex({ terms: 1, spaceId: 1 }, { name: 'postings' });
    await mongo.close();
    replicas.push(await start({ SEARCH_FORMAT_CHECK_MS: '300', SEARCH_DB }));
    const { db } = replicas[0].running.mongo;
    const runs = db.collection<RunRecord>('runs');
    // Each occurrence fails with content's error; the next one tries again.
    await eventually(async () => expect(await runs.countDocuments({ kind: 'search.index-format', status: 'failed' })).toBeGreaterThanOrEqual(2));
    const failed = await runs.findOne({ kind: 'search.index-format', status: 'failed' });
    expect(failed!.reason).toMatch(/content|UNAVAILABLE|unavailable|connect/i);
    await waitForRun(db, failed!._id, 'failed');
    expect(await db.collection<{ _id: string }>('meta').findOne({ _id: 'format' })).toBeNull();
    expect((await db.collection('sections').indexes()).map((x) => x.name)).toContain('postings');
  });
});
