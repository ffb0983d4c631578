import { RunRecord } from '@bindery/platform/runs';
import { eventually, gitbookRepository, startSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { flatPages, Json } from './content-model-fixtures';
import { createOrganization, createUser } from './fixtures';
import { Client, http } from './http-client';
import { startTestGitServer, TestGitServer } from './git-server-fixtures';
import { gitSyncRuns } from './git-sync-run-fixtures';

// Short leases so a dead worker's run is taken over within seconds (heartbeat at most half the lease).
const LEASE_MS = 3000;
const RUN_ENV = { RUNS_LEASE_MS: String(LEASE_MS), RUNS_HEARTBEAT_MS: '500', RUNS_POLL_MS: '100', RUNS_BACKOFF_MS: '100' };

describe('git sync runs: one at a time per space, and an import surviving kill -9 of git-sync', () => {
  let sut: SystemUnderTest;
  let git: TestGitServer;
  let admin: Client;
  let orgId: string;
  let runs: Awaited<ReturnType<typeof gitSyncRuns>>;

  beforeAll(async () => {
    git = await startTestGitServer();
    sut = await startSystem({ BINDERY_OUTBOUND_ALLOW_PRIVATE: 'true', ...RUN_ENV }, { services: ['identity', 'content', 'git-sync'], split: true });
    const owner = await createUser(sut, 'git-takeover-owner');
    orgId = await createOrganization(sut, owner, 'Git takeover');
    admin = http(sut.baseUrl, owner.token);
    runs = await gitSyncRuns(sut);
  }, 180_000);
  afterAll(async () => {
    await runs?.close();
    await sut?.stop();
    await git?.close();
  });

  /** The space's document pages (SUMMARY.md's groups are groups of the tree, not pages of the repository). */
  const pagesOf = async (spaceId: string): Promise<Json[]> => flatPages((await admin.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages).filter((p) => p.type === 'document');

  test('two imports of one space started together run one after the other; the space ends with the second tree', async () => {
    const first = gitbookRepository(60);
    // other files: no page of the first is kept as a page of the second
    const second = gitbookRepository(25, { assets: 0, dir: 'v2' });
    git.createRepository('serial-a');
    git.commit('serial-a', first.files);
    git.createRepository('serial-b');
    git.commit('serial-b', second.files);
    const spaceId = (await createSpace(admin, orgId, { title: 'Serial' })).id as string;
    // every request to the git server waits, so each run spends a while on the wire
    git.delayMs = 300;
    let a: RunRecord;
    let b: RunRecord;
    try {
      const startedA = (await runs.start(admin, spaceId, 'import', { url: git.url('serial-a') }, { wait: false })).run!;
      const startedB = (await runs.start(admin, spaceId, 'import', { url: git.url('serial-b') }, { wait: false })).run!;
      [a, b] = [await runs.wait(startedA._id), await runs.wait(startedB._id)];
    } finally {
      git.delayMs = 0;
    }
    expect([a.status, a.reason, b.status, b.reason]).toEqual(['completed', undefined, 'completed', undefined]);
    // the second started once the first had ended (each was claimed once)
    expect(b.startedAt!.getTime()).toBeGreaterThanOrEqual(a.completedAt!.getTime());
    expect([a.attempt, b.attempt]).toEqual([1, 1]);
    const titles = (await pagesOf(spaceId)).map((p) => p.title as string);
    expect(titles).toHaveLength(second.pages);
    expect(titles.filter((t) => t.startsWith('Chapter 6.') || t.startsWith('Page 6.'))).toEqual([]);
  }, 120_000);

  test('killed mid-import, restarted: the run is taken over after the lease lapses and the space has the tree once', async () => {
    const repo = gitbookRepository(600);
    git.createRepository('takeover');
    git.commit('takeover', repo.files);
    const spaceId = (await createSpace(admin, orgId, { title: 'Takeover' })).id as string;
    const started = (await runs.start(admin, spaceId, 'import', { url: git.url('takeover') }, { wait: false })).run!;
    const before = (await admin.get(`/v1/spaces/${spaceId}/content`)).body.id as string;
    // the files are read and the revision is being written (content writes the whole tree as one revision)
    const midRun = await eventually(
      async () => {
        const run = (await runs.db.collection<RunRecord>('runs').findOne({ _id: started._id }))!;
        if (run.status !== 'in-progress' || !((run.progress?.total ?? 0) > 0)) throw new Error(`run is ${run.status}, no files read yet`);
        return run;
      },
      60_000,
      10,
    );
    const killedAt = Date.now();
    await sut.stopService('git-sync', 'SIGKILL');
    // all or nothing: the import is one revision, whether content finished writing it or not
    const written = (await pagesOf(spaceId)).length;
    expect([0, repo.pages]).toContain(written);
    await sut.restartService('git-sync');
    const run = await runs.wait(started._id, 120_000);
    const doneAt = Date.now();
    expect([run.status, run.reason]).toEqual(['completed', undefined]);
    // the killed attempt and the takeover (a retry under load may add one); the lease had to lapse first
    expect(run.attempt).toBeGreaterThanOrEqual(2);
    expect(doneAt - killedAt).toBeGreaterThanOrEqual(LEASE_MS - 1000);
    // one revision on top of the one before, whichever attempt wrote it (the run's key makes the write once)
    const content = (await admin.get(`/v1/spaces/${spaceId}/content`)).body;
    expect(content.parents).toEqual([before]);
    expect(content.git?.oid).toBe(git.head('takeover'));
    const pages = await pagesOf(spaceId);
    expect(pages).toHaveLength(repo.pages);
    expect(new Set(pages.map((p) => p.title)).size).toBe(repo.pages);
    console.log(
      JSON.stringify({
        pagesWhenKilled: written,
        progressWhenKilled: midRun.progress,
        attempt: run.attempt,
        secondsFromKillToCompleted: (doneAt - killedAt) / 1000,
        leaseMs: LEASE_MS,
      }),
    );
  }, 240_000);
});
