import { randomBytes } from 'node:crypto';
import { connectContent } from '@bindery/content/client';
import { CHANGE_REQUEST_INDEXES } from '@bindery/change-requests/data-access';
import type { ChangeRequestRecord, CommentRecord } from '@bindery/change-requests/domain';
import { EventEnvelope, EventHandlers } from '@bindery/platform/events';
import { connectMongo, ensureIndexes, MongoHandle } from '@bindery/platform/mongo';
import { ChangeRequestsDeps, changeRequestsDeps } from './deps';
import { contentHandlers, identityHandlers } from './event-consumers';

let seq = 0;
const event = (type: string, data: object): EventEnvelope => ({ specversion: '1.0', id: `e${seq++}`, type, source: 'test', time: new Date().toISOString(), subject: 's', data });
const at = '2026-01-01T00:00:00.000Z';
const EMPTY = { object: 'document', data: {}, nodes: [] } as unknown as CommentRecord['body'];

function changeRequest(id: string, spaceId: string, organizationId: string, reviewers: string[]): ChangeRequestRecord {
  return {
    _id: id,
    organizationId,
    spaceId,
    number: Number(id.replace(/\D/g, '')) || 1,
    status: 'open',
    subject: id,
    createdBy: 'u0',
    createdAt: at,
    updatedAt: at,
    revision: 'r1',
    revisionInitial: 'r1',
    contributors: ['u0'],
    requestedReviewers: reviewers.map((userId) => ({ userId, requestedBy: 'u0', revision: 'r1', createdAt: at })),
  };
}

describe('change-requests event consumers (real MongoDB)', () => {
  let mongo: MongoHandle;
  let deps: ChangeRequestsDeps;
  let content: ReturnType<typeof connectContent>;
  let onContent: EventHandlers;
  let onIdentity: EventHandlers;

  beforeAll(async () => {
    mongo = await connectMongo(process.env.BINDERY_TEST_MONGODB_URL!, `cr_consumers_${randomBytes(4).toString('hex')}`, 'test');
    await ensureIndexes(mongo.db, CHANGE_REQUEST_INDEXES);
    // consumers never call content: a client to nowhere
    content = connectContent('127.0.0.1:9', 1000);
    deps = changeRequestsDeps(mongo.db, () => undefined, content);
    onContent = contentHandlers(deps);
    onIdentity = identityHandlers(deps);
  });
  afterAll(async () => {
    content?.close();
    await mongo?.db.dropDatabase();
    await mongo?.close();
  });

  it('removes a purged space’s change requests, comments, replies and reviews, and nothing of another space', async () => {
    await deps.changeRequests.insert(changeRequest('cr1', 's1', 'o1', []), []);
    await deps.changeRequests.insert(changeRequest('cr2', 's2', 'o1', []), []);
    for (const [id, space, cr] of [
      ['c1', 's1', 'cr1'],
      ['c2', 's2', 'cr2'],
    ]) {
      await deps.comments.insert(
        {
          _id: id,
          organizationId: 'o1',
          spaceId: space,
          changeRequestId: cr,
          postedBy: 'u0',
          postedAt: at,
          body: EMPTY,
          revision: 'r1',
          status: 'open',
          reactions: [],
          replies: 1,
          repliers: [],
        },
        [],
      );
      await deps.replies.insert({ _id: `${id}r`, spaceId: space, changeRequestId: cr, commentId: id, postedBy: 'u0', postedAt: at, body: EMPTY, reactions: [] }, []);
      await deps.reviews.insert(
        { _id: `${id}v`, organizationId: 'o1', spaceId: space, changeRequestId: cr, revision: 'r1', reviewer: 'u0', status: 'approved', createdAt: at, updatedAt: at },
        [],
      );
    }
    const first = await deps.changeRequests.nextNumber('s1');
    await onContent['content.space.purged'](event('content.space.purged', { organizationId: 'o1', spaceId: 's1' }));
    expect(await deps.changeRequests.find('s1', 'cr1')).toBeNull();
    expect(await deps.comments.get('cr1', 'c1')).toBeNull();
    expect(await deps.replies.get('c1', 'c1r')).toBeNull();
    expect(await deps.reviews.get('cr1', 'c1v')).toBeNull();
    expect(await deps.changeRequests.find('s2', 'cr2')).not.toBeNull();
    expect(await deps.comments.get('cr2', 'c2')).not.toBeNull();
    expect(await deps.replies.get('c2', 'c2r')).not.toBeNull();
    expect(await deps.reviews.get('cr2', 'c2v')).not.toBeNull();
    // a purged space's counter went with it (space ids are never reused)
    expect(first).toBe(1);
    expect(await deps.changeRequests.nextNumber('s1')).toBe(1);
    expect(await deps.changeRequests.nextNumber('s2')).toBe(1);
    expect(await deps.changeRequests.nextNumber('s2')).toBe(2);
  });

  it('follows a space or a collection to another organization', async () => {
    await deps.changeRequests.insert(changeRequest('cr3', 's3', 'o1', []), []);
    await deps.changeRequests.insert(changeRequest('cr4', 's4', 'o1', []), []);
    await onContent['content.space.transferred'](event('content.space.transferred', { spaceId: 's3', fromOrganizationId: 'o1', organizationId: 'o2' }));
    expect((await deps.changeRequests.find('s3', 'cr3'))?.organizationId).toBe('o2');
    await onContent['content.collection.transferred'](
      event('content.collection.transferred', { collectionId: 'k1', fromOrganizationId: 'o1', organizationId: 'o3', spaces: ['s4'], collections: ['k1'] }),
    );
    expect((await deps.changeRequests.find('s4', 'cr4'))?.organizationId).toBe('o3');
  });

  it('drops the review requests of a member who left, in that organization only', async () => {
    await deps.changeRequests.insert(changeRequest('cr5', 's5', 'o5', ['u1', 'u2']), []);
    await deps.changeRequests.insert(changeRequest('cr6', 's6', 'o6', ['u1']), []);
    await onIdentity['identity.member.removed'](event('identity.member.removed', { organizationId: 'o5', userId: 'u1' }));
    expect((await deps.changeRequests.find('s5', 'cr5'))?.requestedReviewers.map((r) => r.userId)).toEqual(['u2']);
    expect((await deps.changeRequests.find('s6', 'cr6'))?.requestedReviewers.map((r) => r.userId)).toEqual(['u1']);
  });
});
