import { randomBytes } from 'node:crypto';
import { ConsumerLiveness, EventEnvelope } from '@bindery/platform/events';
import { confirmingDenials, withFreshReads } from '@bindery/platform/grpc';
import { DomainError } from '@bindery/platform/errors';
import { connectMongo, ensureIndexes, MongoHandle } from '@bindery/platform/mongo';
import { createOrgAccessProjection, OrgAccessProjection } from './org-access-projection';
import type { OrgAccess } from './org-access-source';

let seq = 0;
const added = (userId: string, role: string): EventEnvelope => ({
  specversion: '1.0',
  id: `d${String(seq++).padStart(6, '0')}`,
  type: 'identity.member.added',
  source: 'test',
  time: '2026-01-01T00:00:01.000Z',
  subject: userId,
  data: { organizationId: 'o1', userId, role },
});

/**
 * Which answers the projection takes from its own records and which it takes from identity. The
 * source here is identity's state written out (identity itself answers in the end-to-end tests:
 * apps/gateway-e2e/src/fresh-access.e2e.spec.ts).
 */
describe('organization access decisions: the copy decides only what it can prove', () => {
  let mongo: MongoHandle;
  let projection: OrgAccessProjection;
  // The consumer's applied position and the broker's end offset of its one partition; `brokerUp` false: the broker does not answer.
  const partition = { applied: 3, end: 3, brokerUp: true };
  const liveness = new ConsumerLiveness({ cacheMs: 0 });
  liveness.attach({ applied: () => [{ topic: 'identity', partition: 0, next: partition.applied }] }, () =>
    partition.brokerUp ? Promise.resolve([{ topic: 'identity', partition: 0, end: partition.end }]) : Promise.reject(new Error('broker unreachable')),
  );
  const identity = new Map<string, OrgAccess>();
  let asked = 0;

  beforeAll(async () => {
    mongo = await connectMongo(process.env.BINDERY_TEST_MONGODB_URL!, `decisions_${randomBytes(4).toString('hex')}`, 'test');
    projection = createOrgAccessProjection(mongo.db, {
      liveness,
      source: {
        accessOf: async (o, u) => {
          asked++;
          return identity.get(`${o}:${u}`);
        },
      },
    });
    await ensureIndexes(mongo.db, projection.indexes);
    await projection.handlers['identity.member.added'](added('reader', 'read'));
    identity.set('o1:reader', { role: 'read', teams: [] });
  });
  afterAll(async () => {
    await mongo.db.dropDatabase();
    await mongo.close();
  });
  beforeEach(() => {
    asked = 0;
    Object.assign(partition, { applied: 3, end: 3, brokerUp: true });
  });

  it('answers a member from its records while its consumer is current', async () => {
    expect(await projection.accessOf('o1', 'reader')).toEqual({ role: 'read', teams: [] });
    expect(asked).toBe(0);
  });

  it('asks identity about a user it does not know: a member added a moment ago', async () => {
    identity.set('o1:new', { role: 'admin', teams: [] });
    expect(await projection.accessOf('o1', 'new')).toEqual({ role: 'admin', teams: [] });
    expect(asked).toBe(1);
    expect(await projection.accessOf('o1', 'stranger')).toBeUndefined();
    expect(asked).toBe(2);
  });

  it('asks identity for everything while the broker does not answer (its consumer cannot prove it is current)', async () => {
    identity.delete('o1:reader');
    partition.brokerUp = false;
    expect(await projection.accessOf('o1', 'reader')).toBeUndefined();
    expect(asked).toBe(1);
    partition.brokerUp = true;
    expect(await projection.accessOf('o1', 'reader')).toEqual({ role: 'read', teams: [] });
    identity.set('o1:reader', { role: 'read', teams: [] });
  });

  it('asks identity while its consumer has events left behind', async () => {
    partition.end = 4;
    await projection.accessOf('o1', 'reader');
    expect(asked).toBe(1);
    partition.applied = 4;
    await projection.accessOf('o1', 'reader');
    expect(asked).toBe(1);
  });

  it('asks identity in a call that is confirming a denial', async () => {
    identity.set('o1:reader', { role: 'comment', teams: [] });
    expect(await withFreshReads(() => projection.accessOf('o1', 'reader'))).toEqual({ role: 'comment', teams: [] });
    expect(asked).toBe(1);
    identity.set('o1:reader', { role: 'read', teams: [] });
  });

  it('a denial resting on the copy is confirmed: the work runs again with fresh reads', async () => {
    identity.set('o1:reader', { role: 'comment', teams: [] });
    let runs = 0;
    const comment = () =>
      confirmingDenials(false, async () => {
        runs++;
        const access = await projection.accessOf('o1', 'reader');
        if (access?.role !== 'comment') throw new DomainError('forbidden', 'Commenting needs the comment role.');
        return 'commented';
      });
    expect(await comment()).toBe('commented');
    expect(runs).toBe(2);
    identity.set('o1:reader', { role: 'read', teams: [] });
    runs = 0;
    await expect(comment()).rejects.toThrow('comment role');
    expect(runs).toBe(2);
  });

  it('a denial that rests on no copy is not run again', async () => {
    let runs = 0;
    await expect(
      confirmingDenials(false, async () => {
        runs++;
        throw new DomainError('not_found', 'Space not found.');
      }),
    ).rejects.toThrow('Space not found');
    expect(runs).toBe(1);
  });
});
