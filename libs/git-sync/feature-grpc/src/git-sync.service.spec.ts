import { IdentityEvents } from '@bindery/identity/client';
import { connectGitSync } from '@bindery/git-sync/client';
import { FAST_RUN_SETTINGS, startServiceUnderTest, ServiceUnderTest, waitForRun } from '@bindery/shared/testing';
import { GIT_SYNC_RUNS } from './git-sync-runs';
import { GitSyncDeps, gitSyncService, identityHandlers } from './git-sync-server';

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

  test('a user created in identity is noted, and a run counts the notes with its progress', async () => {
    const { notes, runs, db } = service.running.deps;
    const handlers = identityHandlers(service.running.deps);
    await handlers[IdentityEvents.userCreated.type](IdentityEvents.userCreated.create('identity', 'u2', { userId: 'u2', email: 'u2@example.com' }));
    expect(await notes.ofSubject('u2')).toMatchObject([{ subject: 'u2', text: 'user u2@example.com created' }]);

    const { run } = await runs.enqueue({ kind: GIT_SYNC_RUNS.example, input: { subjects: ['u2', 'nobody'] } });
    const done = await waitForRun(db, run._id, 'completed');
    expect(done.result).toEqual({ subjects: 2, notes: 1 });
    expect(done.progress).toMatchObject({ done: 2, total: 2 });
  });
});
