import { IdentityEvents } from '@bindery/identity/client';
import { connectSpecs } from '@bindery/specs/client';
import { FAST_RUN_SETTINGS, startServiceUnderTest, ServiceUnderTest, waitForRun } from '@bindery/shared/testing';
import { SPECS_RUNS } from './specs-runs';
import { SpecsDeps, specsService, identityHandlers } from './specs-server';

describe('specs service (in process, real MongoDB and Kafka)', () => {
  let service: ServiceUnderTest<SpecsDeps>;
  let clients: ReturnType<typeof connectSpecs>;

  beforeAll(async () => {
    service = await startServiceUnderTest(specsService, FAST_RUN_SETTINGS);
    clients = connectSpecs(service.address, 5000);
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });

  test('answers a caller and refuses an anonymous call', async () => {
    const caller = { userId: 'u1', isInstanceAdmin: false };
    expect(await clients.specs.ping({}, { caller })).toEqual({ service: 'specs', callerUserId: 'u1' });
    await expect(clients.specs.ping({})).rejects.toMatchObject({ kind: 'unauthenticated' });
  });

  test('a user created in identity is noted, and a run counts the notes with its progress', async () => {
    const { notes, runs, db } = service.running.deps;
    const handlers = identityHandlers(service.running.deps);
    await handlers[IdentityEvents.userCreated.type](IdentityEvents.userCreated.create('identity', 'u2', { userId: 'u2', email: 'u2@example.com' }));
    expect(await notes.ofSubject('u2')).toMatchObject([{ subject: 'u2', text: 'user u2@example.com created' }]);

    const { run } = await runs.enqueue({ kind: SPECS_RUNS.example, input: { subjects: ['u2', 'nobody'] } });
    const done = await waitForRun(db, run._id, 'completed');
    expect(done.result).toEqual({ subjects: 2, notes: 1 });
    expect(done.progress).toMatchObject({ done: 2, total: 2 });
  });
});
