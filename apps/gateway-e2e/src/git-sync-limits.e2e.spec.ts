import { randomBytes } from 'node:crypto';
import { startSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { createOrganization, createUser } from './fixtures';
import { Client, http } from './http-client';
import { startTestGitServer, TestGitServer } from './git-server-fixtures';
import { gitSyncRuns } from './git-sync-run-fixtures';

const MAX_REPO_BYTES = 256 * 1024;
const RUN_TIMEOUT_MS = 4000;

describe('git sync runs are held to their limits (GIT_SYNC_MAX_REPO_BYTES, GIT_SYNC_RUN_TIMEOUT_MS)', () => {
  let sut: SystemUnderTest;
  let git: TestGitServer;
  let admin: Client;
  let orgId: string;
  let runs: Awaited<ReturnType<typeof gitSyncRuns>>;

  beforeAll(async () => {
    git = await startTestGitServer();
    sut = await startSystem(
      { BINDERY_OUTBOUND_ALLOW_PRIVATE: 'true', GIT_SYNC_MAX_REPO_BYTES: String(MAX_REPO_BYTES), GIT_SYNC_RUN_TIMEOUT_MS: String(RUN_TIMEOUT_MS) },
      { services: ['identity', 'content', 'git-sync'] },
    );
    const owner = await createUser(sut, 'limits-owner');
    orgId = await createOrganization(sut, owner, 'Git limits');
    admin = http(sut.baseUrl, owner.token);
    runs = await gitSyncRuns(sut);
  }, 180_000);
  afterAll(async () => {
    await runs?.close();
    await sut?.stop();
    await git?.close();
  });

  test('a repository over the size limit fails its run with a reason naming the limit; one under it imports', async () => {
    git.createRepository('small');
    git.commit('small', { 'README.md': '# Small\n\nFits.\n', 'SUMMARY.md': '* [Small](README.md)\n' });
    git.createRepository('big');
    // incompressible: 1 MB on the wire and on disk, four times the limit
    git.commit('big', { 'README.md': '# Big\n', '.gitbook/assets/video.bin': randomBytes(1024 * 1024).toString('base64') });
    const spaceId = (await createSpace(admin, orgId, { title: 'Too big' })).id as string;

    const big = (await runs.start(admin, spaceId, 'import', { url: git.url('big') })).run!;
    expect(big.status).toBe('failed');
    expect(big.reason).toMatch(/^The repository is too large: (more than )?[\d.]+ MB to fetch, over the limit of 0\.3 MB \(GIT_SYNC_MAX_REPO_BYTES\)\./);
    expect(big.attempt).toBe(1);
    expect((await admin.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages).toEqual([]);

    const small = (await runs.start(admin, spaceId, 'import', { url: git.url('small') })).run!;
    expect([small.status, small.reason]).toEqual(['completed', undefined]);
    expect((await admin.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages.map((p: { title: string }) => p.title)).toEqual(['Small']);
  }, 120_000);

  test('a run past its time limit is stopped and fails with a reason naming the limit', async () => {
    git.createRepository('slow');
    git.commit('slow', { 'README.md': '# Slow\n' });
    const spaceId = (await createSpace(admin, orgId, { title: 'Too slow' })).id as string;
    git.delayMs = 3 * RUN_TIMEOUT_MS;
    try {
      const slow = (await runs.start(admin, spaceId, 'import', { url: git.url('slow') })).run!;
      expect(slow.status).toBe('failed');
      expect(slow.reason).toBe(
        'The run took longer than its limit of 4 s (GIT_SYNC_RUN_TIMEOUT_MS) and was stopped: sync a smaller repository or project directory, or raise the limit.',
      );
      expect(slow.attempt).toBe(1);
      // stopped at its limit, not when the server finally answered
      expect(slow.completedAt!.getTime() - slow.startedAt!.getTime()).toBeLessThan(3 * RUN_TIMEOUT_MS - 1000);
    } finally {
      git.delayMs = 0;
    }
    expect((await admin.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages).toEqual([]);
  }, 120_000);
});
