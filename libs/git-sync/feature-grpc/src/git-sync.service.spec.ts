import { connectGitSync } from '@bindery/git-sync/client';
import { FAST_RUN_SETTINGS, startServiceUnderTest, ServiceUnderTest } from '@bindery/shared/testing';
import { GitSyncDeps, gitSyncService } from './git-sync-server';

describe('git-sync service (in process, real MongoDB and Kafka)', () => {
  let service: ServiceUnderTest<GitSyncDeps>;
  let clients: ReturnType<typeof connectGitSync>;

  beforeAll(async () => {
    service = await startServiceUnderTest(gitSyncService, FAST_RUN_SETTINGS);
    clients = connectGitSync(service.address, 5000);
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });

  test('answers a caller and refuses an anonymous call', async () => {
    const caller = { userId: 'u1', isInstanceAdmin: false };
    expect(await clients.gitSync.ping({}, { caller })).toEqual({ service: 'git-sync', callerUserId: 'u1' });
    await expect(clients.gitSync.ping({})).rejects.toMatchObject({ kind: 'unauthenticated' });
  });

  test.each([
    'file:///etc',
    'ssh://git@example.com/a.git',
    'ext::sh -c touch% /tmp/x',
    'git@example.com:a/b.git',
    'git://example.com/a.git',
    'https://u:secret@example.com/a.git?x=1',
  ])('refuses the remote %s before anything else, without repeating it', async (url) => {
    const caller = { userId: 'u1', isInstanceAdmin: false };
    const req = {
      spaceId: 's1',
      url,
      ref: 'refs/heads/main',
      repoCacheId: '',
      repoTreeUrl: '',
      repoCommitUrl: '',
      repoProjectDirectory: '',
      timestamp: '',
      force: false,
      standalone: false,
      gitInfoProvider: '',
      gitInfoUrl: '',
    };
    const err = await clients.gitSync.startImport(req, { caller }).catch((e: unknown) => e as Error);
    expect(err).toMatchObject({ kind: 'invalid' });
    expect(String((err as Error).message)).not.toContain('secret');
  });
});
