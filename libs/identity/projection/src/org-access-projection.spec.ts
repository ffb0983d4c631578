import { randomBytes } from 'node:crypto';
import { EventEnvelope } from '@bindery/platform/events';
import { connectMongo, ensureIndexes, MongoHandle, mongoProcessedEvents } from '@bindery/platform/mongo';
import { createOrgAccessProjection, OrgAccessProjection } from './org-access-projection';

let seq = 0;
function event(type: string, data: object, time: string): EventEnvelope {
  return { specversion: '1.0', id: `e${String(seq++).padStart(6, '0')}`, type, source: 'test', time, subject: 's', data };
}

describe('organization access projection (real MongoDB)', () => {
  let mongo: MongoHandle;
  let projection: OrgAccessProjection;

  beforeAll(async () => {
    mongo = await connectMongo(process.env.BINDERY_TEST_MONGODB_URL!, `projection_${randomBytes(4).toString('hex')}`, 'test');
    projection = createOrgAccessProjection(mongo.db, { source: { accessOf: async () => undefined } });
    await ensureIndexes(mongo.db, projection.indexes);
  });
  afterAll(async () => {
    await mongo.db.dropDatabase();
    await mongo.close();
  });

  const apply = (e: EventEnvelope) => projection.handlers[e.type](e);

  it('follows a member through added, role changes and removal', async () => {
    await apply(event('identity.member.added', { organizationId: 'o1', userId: 'u1', role: 'edit' }, '2026-01-01T00:00:01.000Z'));
    expect(await projection.projectedAccessOf('o1', 'u1')).toEqual({ role: 'edit', teams: [] });
    await apply(event('identity.member.role_changed', { organizationId: 'o1', userId: 'u1', role: 'read', previousRole: 'edit' }, '2026-01-01T00:00:02.000Z'));
    expect((await projection.projectedAccessOf('o1', 'u1'))?.role).toBe('read');
    await apply(event('identity.member.role_changed', { organizationId: 'o1', userId: 'u1' }, '2026-01-01T00:00:03.000Z'));
    expect((await projection.projectedAccessOf('o1', 'u1'))?.role).toBeNull();
    await apply(event('identity.member.removed', { organizationId: 'o1', userId: 'u1' }, '2026-01-01T00:00:04.000Z'));
    expect(await projection.projectedAccessOf('o1', 'u1')).toBeUndefined();
  });

  it('ignores an older event arriving late, and a duplicate', async () => {
    const newer = event('identity.member.role_changed', { organizationId: 'o2', userId: 'u2', role: 'admin' }, '2026-01-01T00:00:05.000Z');
    const older = event('identity.member.added', { organizationId: 'o2', userId: 'u2', role: 'read' }, '2026-01-01T00:00:01.000Z');
    await apply(newer);
    await apply(older);
    await apply(newer);
    expect(await projection.projectedAccessOf('o2', 'u2')).toEqual({ role: 'admin', teams: [] });
  });

  it('tracks team memberships, late removals and deleted teams', async () => {
    await apply(event('identity.member.added', { organizationId: 'o3', userId: 'u3', role: 'read' }, '2026-01-01T00:00:01.000Z'));
    await apply(event('identity.team_member.added', { organizationId: 'o3', teamId: 't1', userId: 'u3', role: 'member' }, '2026-01-01T00:00:02.000Z'));
    await apply(event('identity.team_member.added', { organizationId: 'o3', teamId: 't2', userId: 'u3', role: 'owner' }, '2026-01-01T00:00:03.000Z'));
    expect((await projection.projectedAccessOf('o3', 'u3'))?.teams).toEqual(['t1', 't2']);
    // A removal older than the addition it would undo changes nothing.
    await apply(event('identity.team_member.removed', { organizationId: 'o3', teamId: 't2', userId: 'u3' }, '2026-01-01T00:00:02.500Z'));
    expect((await projection.projectedAccessOf('o3', 'u3'))?.teams).toEqual(['t1', 't2']);
    await apply(event('identity.team.deleted', { organizationId: 'o3', teamId: 't1' }, '2026-01-01T00:00:04.000Z'));
    expect((await projection.projectedAccessOf('o3', 'u3'))?.teams).toEqual(['t2']);
  });

  it('applies in the consumer transaction: a late older event commits nothing wrong and aborts nothing', async () => {
    const processed = mongoProcessedEvents(mongo.db);
    const inTx = (e: EventEnvelope) => processed.applyOnce('projection-test', e.id, (ctx) => projection.handlers[e.type](e, ctx));
    const newer = event('identity.member.role_changed', { organizationId: 'o4', userId: 'u4', role: 'admin' }, '2026-01-01T00:00:05.000Z');
    const older = event('identity.member.added', { organizationId: 'o4', userId: 'u4', role: 'read' }, '2026-01-01T00:00:01.000Z');
    const team = event('identity.team_member.added', { organizationId: 'o4', teamId: 't4', userId: 'u4', role: 'member' }, '2026-01-01T00:00:06.000Z');
    expect(await inTx(newer)).toBe(true);
    expect(await inTx(older)).toBe(true);
    expect(await inTx(team)).toBe(true);
    expect(await inTx(older)).toBe(false);
    expect(await projection.projectedAccessOf('o4', 'u4')).toEqual({ role: 'admin', teams: ['t4'] });
  });
});
