import { randomBytes } from 'node:crypto';
import { connectContent } from '@bindery/content/client';
import { IdentityEvents as I } from '@bindery/identity/client';
import type { EventEnvelope } from '@bindery/platform/events';
import { internalCaller } from '@bindery/platform/grpc';
import type { RunRecord } from '@bindery/platform/runs';
import { eventually, FAST_RUN_SETTINGS, infraEnv, readEvents, startServiceUnderTest, ServiceUnderTest } from '@bindery/shared/testing';
import { RESTORE_WINDOW_MS } from '@bindery/content/domain';
import type { ContentDeps } from './content-deps';
import { contentServiceWith } from './content-server';
import { identityStandIn } from '@bindery/identity/projection';
import { PURGE_RUN, runPurge } from './purge';
import { WEBSITE_IMPORT_RUN } from './imports';

const DAY = 24 * 3600 * 1000;
const admin = { userId: `admin-${randomBytes(3).toString('hex')}`, isInstanceAdmin: false };
const org = `org-${randomBytes(3).toString('hex')}`;

/** Feeds the access projection as identity's events would (the Kafka path is covered end to end). */
async function addMember(deps: ContentDeps, organizationId: string, userId: string, role: string | undefined) {
  await deps.access.handlers[I.memberAdded.type](I.memberAdded.create('tests', userId, { organizationId, userId, role }, organizationId));
}

describe('content service (in process, real MongoDB and Kafka)', () => {
  let now = Date.parse('2026-01-01T00:00:00.000Z');
  let service: ServiceUnderTest<ContentDeps>;
  let clients: ReturnType<typeof connectContent>;

  beforeAll(async () => {
    service = await startServiceUnderTest(
      contentServiceWith(() => now, identityStandIn),
      { CONTENT_PURGE_EVERY_MS: '86400000' },
    );
    clients = connectContent(service.address, 10000);
    await addMember(service.running.deps, org, admin.userId, 'admin');
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });

  const create = async (title = 'Space') => clients.spaces.createSpace({ organizationId: org, title }, { caller: admin });

  test('a new space has an empty current revision and answers with its permissions', async () => {
    const space = await create('Handbook');
    expect(space.revision).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(space.permissions).toMatchObject({ view: true, admin: true, edit: true });
    expect(await clients.spaces.getSpace({ spaceId: space.id }, { caller: admin })).toMatchObject({ id: space.id, title: 'Handbook', defaultLevel: 'inherit' });
  });

  test('restore works 7 days minus 1 second after deletion, is refused 1 second past 7 days, and the purge then removes it', async () => {
    const space = await create('Boundary');
    // an import run of the space, due far ahead so no worker runs it
    const runs = service.running.deps.imports!.runs;
    const job = (
      await runs.enqueue({ kind: WEBSITE_IMPORT_RUN, input: { spaceId: space.id, url: 'https://docs.example.com/' }, organizationId: org, dueAt: new Date(Date.now() + 3600_000) })
    ).run._id;
    const t0 = now;
    expect(await clients.spaces.deleteSpace({ spaceId: space.id }, { caller: admin })).toEqual({ deleted: true });
    await expect(clients.spaces.getSpace({ spaceId: space.id }, { caller: admin })).rejects.toMatchObject({ kind: 'not_found' });
    now = t0 + RESTORE_WINDOW_MS - 1000;
    expect((await clients.spaces.restoreSpace({ spaceId: space.id }, { caller: admin })).deletedAt).toBeUndefined();

    const t1 = now;
    await clients.spaces.deleteSpace({ spaceId: space.id }, { caller: admin });
    now = t1 + RESTORE_WINDOW_MS - 1000;
    expect((await runPurge(service.running.deps)).claimed).toBe(0);
    now = t1 + RESTORE_WINDOW_MS + 1000;
    await expect(clients.spaces.restoreSpace({ spaceId: space.id }, { caller: admin })).rejects.toMatchObject({ kind: 'precondition' });
    expect((await runPurge(service.running.deps)).claimed).toBeGreaterThanOrEqual(1);
    // removed once its purge event has been relayed, and its import runs with it
    await eventually(async () => {
      await runPurge(service.running.deps);
      expect(await service.running.deps.spaces.findIncludingDeleted(space.id)).toBeNull();
      expect(await runs.get(job)).toBeNull();
    });
    await expect(clients.spaces.restoreSpace({ spaceId: space.id }, { caller: admin })).rejects.toMatchObject({ kind: 'not_found' });
  });

  test('deleting twice answers deleted=false the second time', async () => {
    const space = await create();
    expect(await clients.spaces.deleteSpace({ spaceId: space.id }, { caller: admin })).toEqual({ deleted: true });
    expect(await clients.spaces.deleteSpace({ spaceId: space.id }, { caller: admin })).toEqual({ deleted: false });
  });

  test('two concurrent opposite moves of two collections never make a cycle', async () => {
    for (let round = 0; round < 10; round++) {
      const a = await clients.collections.createCollection({ organizationId: org, title: `A${round}` }, { caller: admin });
      const b = await clients.collections.createCollection({ organizationId: org, title: `B${round}` }, { caller: admin });
      const results = await Promise.allSettled([
        clients.collections.moveCollection({ id: a.id, parent: { value: b.id }, position: undefined }, { caller: admin }),
        clients.collections.moveCollection({ id: b.id, parent: { value: a.id }, position: undefined }, { caller: admin }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const [ra, rb] = await Promise.all([a, b].map((c) => clients.collections.getCollection({ collectionId: c.id }, { caller: admin })));
      expect(ra.parent === b.id && rb.parent === a.id).toBe(false);
    }
  });

  test('20 creates at once in one organization all succeed', async () => {
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => create(`Burst ${i}`)));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
  });

  test('a space created while its collection is deleted is never left live inside the deleted collection', async () => {
    for (let round = 0; round < 10; round++) {
      const c = await clients.collections.createCollection({ organizationId: org, title: `C${round}` }, { caller: admin });
      const [created] = await Promise.allSettled([
        clients.spaces.createSpace({ organizationId: org, title: 'Racing', parent: c.id }, { caller: admin }),
        clients.collections.deleteCollection({ collectionId: c.id }, { caller: admin }),
      ]);
      if (created.status === 'fulfilled') {
        // Created first: the delete took it along.
        await expect(clients.spaces.getSpace({ spaceId: created.value.id }, { caller: admin })).rejects.toMatchObject({ kind: 'not_found' });
      } else {
        expect(created.reason).toMatchObject({ kind: 'invalid' });
      }
    }
  });

  test('lists every live space to a service and an instance admin, in pages, and to nobody else', async () => {
    const made = [await create('All 1'), await create('All 2'), await create('All 3')];
    await clients.spaces.deleteSpace({ spaceId: made[1].id }, { caller: admin });
    const seen: { spaceId: string; organizationId: string }[] = [];
    let after = '';
    do {
      const page = await clients.spaces.listAllSpaces({ after, limit: 2 }, { caller: internalCaller('search') });
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items);
      after = page.next;
    } while (after);
    const ids = seen.map((s) => s.spaceId);
    expect(ids).toEqual([...ids].sort());
    expect(seen).toEqual(expect.arrayContaining([made[0], made[2]].map((s) => ({ spaceId: s.id, organizationId: org }))));
    expect(ids).not.toContain(made[1].id);
    expect((await clients.spaces.listAllSpaces({ after: '', limit: 0 }, { caller: { userId: 'root', isInstanceAdmin: true } })).items.length).toBe(ids.length);
    await expect(clients.spaces.listAllSpaces({ after: '', limit: 0 }, { caller: admin })).rejects.toMatchObject({ kind: 'forbidden' });
  });
});

describe('the purge with two content replicas on one database', () => {
  // Longer than the tier: two content replicas purge many spaces and relay their events.
  test('each expired space is claimed and its purged event published exactly once', async () => {
    let now = Date.parse('2026-02-01T00:00:00.000Z');
    const run = randomBytes(4).toString('hex');
    const shared = { CONTENT_DB: `svc_content_pair_${run}`, KAFKA_NAMESPACE: `p${run}.`, CONTENT_PURGE_EVERY_MS: '86400000' };
    const one = await startServiceUnderTest(
      contentServiceWith(() => now, identityStandIn),
      shared,
    );
    const two = await startServiceUnderTest(
      contentServiceWith(() => now, identityStandIn),
      shared,
    );
    const clients = connectContent(one.address, 10000);
    try {
      await addMember(one.running.deps, org, admin.userId, 'admin');
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) ids.push((await clients.spaces.createSpace({ organizationId: org, title: `S${i}` }, { caller: admin })).id);
      for (const id of ids) await clients.spaces.deleteSpace({ spaceId: id }, { caller: admin });
      now += 8 * DAY;
      const [a, b] = await Promise.all([runPurge(one.running.deps), runPurge(two.running.deps)]);
      expect(a.claimed + b.claimed).toBe(20);
      // The relay delivers at least once (two replicas may both send one recorded event; consumers
      // drop copies by event id): "once" means one event, one id, per space.
      const subjects = (events: EventEnvelope[]) => new Set(events.filter((e) => e.type === 'content.space.purged').map((e) => e.subject));
      const purged = await readEvents(infraEnv().KAFKA_BROKERS.split(','), `${shared.KAFKA_NAMESPACE}bindery.content.v1`, (events) => subjects(events).size >= 20);
      const idsPerSpace = new Map<string, Set<string>>();
      for (const e of purged.filter((x) => x.type === 'content.space.purged')) idsPerSpace.set(e.subject, (idsPerSpace.get(e.subject) ?? new Set()).add(e.id));
      expect([...idsPerSpace.keys()].sort()).toEqual([...ids].sort());
      expect([...idsPerSpace.values()].every((set) => set.size === 1)).toBe(true);
    } finally {
      clients.close();
      await two.running.stop();
      await one.stop();
    }
  }, 60_000);

  test('as a scheduled run: each occurrence is one run executed by one replica, and every expired space is claimed once', async () => {
    let now = Date.parse('2026-03-01T00:00:00.000Z');
    const run = randomBytes(4).toString('hex');
    const shared = { ...FAST_RUN_SETTINGS, CONTENT_DB: `svc_content_sched_${run}`, KAFKA_NAMESPACE: `q${run}.`, CONTENT_PURGE_EVERY_MS: '200' };
    const one = await startServiceUnderTest(
      contentServiceWith(() => now, identityStandIn),
      shared,
    );
    const two = await startServiceUnderTest(
      contentServiceWith(() => now, identityStandIn),
      shared,
    );
    const clients = connectContent(one.address, 10000);
    try {
      await addMember(one.running.deps, org, admin.userId, 'admin');
      for (let i = 0; i < 5; i++) {
        const { id } = await clients.spaces.createSpace({ organizationId: org, title: `P${i}` }, { caller: admin });
        await clients.spaces.deleteSpace({ spaceId: id }, { caller: admin });
      }
      now += 8 * DAY;
      const runs = one.running.mongo.db.collection<RunRecord>('runs');
      const claimedByRuns = async () => (await runs.find({ kind: PURGE_RUN, status: 'completed' }).toArray()).reduce((n, r) => n + ((r.result?.['claimed'] as number) ?? 0), 0);
      await eventually(async () => expect(await claimedByRuns()).toBe(5));
      const all = await runs.find({ kind: PURGE_RUN }).toArray();
      expect(new Set(all.map((r) => r.idempotencyKey)).size).toBe(all.length);
      expect(all.filter((r) => r.status === 'completed').every((r) => r.attempt === 1)).toBe(true);
    } finally {
      clients.close();
      await two.running.stop();
      await one.stop();
    }
  });
});
