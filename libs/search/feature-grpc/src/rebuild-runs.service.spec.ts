import { connectSearch } from '@bindery/search/client';
import { FAST_RUN_SETTINGS, simulateCrashedWorker, startServiceUnderTest, ServiceUnderTest, waitForRun } from '@bindery/shared/testing';
import { SearchDeps, searchService } from './search-server';
import { SEARCH_RUNS } from './search-runs';

// Rebuilds of spaces the index does not know need no call to content, so content stays unreachable here.
describe('search rebuilds as runs (in process, real MongoDB and Kafka)', () => {
  let service: ServiceUnderTest<SearchDeps>;
  let clients: ReturnType<typeof connectSearch>;
  const instanceAdmin = { userId: 'root', isInstanceAdmin: true };

  beforeAll(async () => {
    service = await startServiceUnderTest(searchService, {
      ...FAST_RUN_SETTINGS,
      CONTENT_GRPC_URL: '127.0.0.1:9',
      SEARCH_CONTENT_DEADLINE_MS: '1000',
      SEARCH_FORMAT_CHECK_MS: '86400000',
    });
    clients = connectSearch(service.address, 5000);
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });

  test('a rebuild answers its pending run at once; polling finds it completed with its counts', async () => {
    const { run } = await clients.search.rebuild({ spaceIds: ['unknown-space'] }, { caller: instanceAdmin });
    expect(run).toMatchObject({ kind: SEARCH_RUNS.rebuild, status: 'pending', attempt: 0, createdBy: 'root' });
    await waitForRun(service.running.mongo.db, run!.id, 'completed');
    expect(await clients.search.getRebuild({ runId: run!.id }, { caller: instanceAdmin })).toMatchObject({ status: 'completed', resultJson: '{"spaces":0,"pages":0}', attempt: 1 });
    await expect(clients.search.getRebuild({ runId: run!.id }, { caller: { userId: 'u1', isInstanceAdmin: false } })).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(clients.search.getRebuild({ runId: 'nope' }, { caller: instanceAdmin })).rejects.toMatchObject({ kind: 'not_found' });
  });

  test("a rebuild claimed by a worker that was killed is taken over once the dead worker's lease lapses", async () => {
    const { runs } = service.running.deps;
    const { db } = service.running.mongo;
    // Due later, so that the live worker does not claim it before the crashed one.
    const { run } = await runs.enqueue({ kind: SEARCH_RUNS.rebuild, input: { spaceIds: ['unknown-space'] }, dueAt: new Date(Date.now() + 3600_000) });
    await simulateCrashedWorker(db, run._id, { lapsed: false });
    const done = await waitForRun(db, run._id, 'completed');
    expect(done).toMatchObject({ attempt: 2, result: { spaces: 0, pages: 0 } });
  });

  test("a rebuild that cannot reach content is retried, then fails with content's error as its reason", async () => {
    const { run } = await clients.search.rebuild({ spaceIds: [] }, { caller: instanceAdmin });
    const failed = await waitForRun(service.running.mongo.db, run!.id, 'failed');
    expect(failed.attempt).toBe(3);
    expect(failed.reason).toMatch(/\(gave up after 3 attempts\)$/);
  });

  test('cancelling a pending rebuild cancels it at once; a finished one is answered as it is', async () => {
    const { runs } = service.running.deps;
    const { run } = await runs.enqueue({ kind: SEARCH_RUNS.rebuild, input: { spaceIds: [] }, dueAt: new Date(Date.now() + 3600_000) });
    expect(await clients.search.cancelRebuild({ runId: run._id }, { caller: instanceAdmin })).toMatchObject({ status: 'cancelled' });
    expect(await clients.search.cancelRebuild({ runId: run._id }, { caller: instanceAdmin })).toMatchObject({ status: 'cancelled' });
    await expect(clients.search.cancelRebuild({ runId: run._id }, { caller: { userId: 'u1', isInstanceAdmin: false } })).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(clients.search.cancelRebuild({ runId: 'nope' }, { caller: instanceAdmin })).rejects.toMatchObject({ kind: 'not_found' });
  });
});
