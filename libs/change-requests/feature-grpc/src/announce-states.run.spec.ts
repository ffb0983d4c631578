import { randomBytes } from 'node:crypto';
import { ChangeRequestEvents as E } from '@bindery/change-requests/client';
import type { ChangeRequestRecord, CommentRecord } from '@bindery/change-requests/domain';
import { topicOf } from '@bindery/platform/events';
import { eventually, readEvents, startServiceUnderTest, ServiceUnderTest } from '@bindery/shared/testing';
import { ANNOUNCE_STATES_KEY, ANNOUNCE_STATES_RUN, announceStates } from './announce-states.run';
import type { ChangeRequestsDeps } from './deps';
import { changeRequestsService } from './change-requests-server';

const at = '2026-01-01T00:00:00.000Z';
const namespace = `an${randomBytes(3).toString('hex')}.`;

// In process, against the real MongoDB and Kafka (content is not called).
describe('the announcement of states (what consumers that started late did not hear)', () => {
  const spaceId = `space-${randomBytes(3).toString('hex')}`;
  let service: ServiceUnderTest<ChangeRequestsDeps>;

  beforeAll(async () => {
    service = await startServiceUnderTest(changeRequestsService, { CONTENT_GRPC_URL: '127.0.0.1:9', KAFKA_NAMESPACE: namespace });
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('is enqueued once at start, and publishes each change request and live comment as it is, after its earlier events', async () => {
    const { changeRequests, comments, runs } = service.running.deps;
    // enqueued at start: enqueueing its key again answers the same run, which has run
    const again = await runs!.enqueue({ kind: ANNOUNCE_STATES_RUN, idempotencyKey: ANNOUNCE_STATES_KEY });
    expect(again.created).toBe(false);
    await eventually(async () => expect((await runs!.get(again.run._id))?.status).toBe('completed'));
    const cr = (n: number, status: ChangeRequestRecord['status']): ChangeRequestRecord => ({
      _id: `${spaceId}-cr${n}`,
      organizationId: 'org',
      spaceId,
      number: n,
      status,
      subject: `cr${n}`,
      createdBy: 'u0',
      createdAt: at,
      updatedAt: at,
      revision: 'r1',
      revisionInitial: 'r1',
      contributors: ['u0'],
      requestedReviewers: [],
    });
    const comment = (n: number, status: CommentRecord['status']): CommentRecord => ({
      _id: `${spaceId}-c${n}`,
      organizationId: 'org',
      spaceId,
      changeRequestId: `${spaceId}-cr1`,
      postedBy: 'u0',
      postedAt: at,
      body: { nodes: [] } as never,
      revision: 'r1',
      status,
      reactions: [],
      replies: 0,
      repliers: [],
    });
    await changeRequests.insert(cr(1, 'open'), []);
    await changeRequests.insert(cr(2, 'merged'), []);
    await comments.insert(comment(1, 'open'), []);
    await comments.insert(comment(2, 'resolved'), []);
    await comments.insert(comment(3, 'open'), []);
    await comments.remove(`${spaceId}-cr1`, `${spaceId}-c3`, at, []);

    expect(await announceStates(service.running.deps)).toEqual({ changeRequests: 2, comments: 2 });
    const mine = <T extends { data: unknown }>(events: T[]) => events.filter((e) => (e.data as { spaceId?: string }).spaceId === spaceId);
    const events = mine(await readEvents([process.env['KAFKA_BROKERS'] ?? '127.0.0.1:25092'], `${namespace}${topicOf('change-requests')}`, (all) => mine(all).length >= 4));
    const states = events.map((e) => [
      e.type,
      (e.data as { changeRequestId: string }).changeRequestId,
      (e.data as { commentId?: string }).commentId,
      (e.data as { status?: string }).status,
    ]);
    expect(states).toEqual(
      expect.arrayContaining([
        [E.updated.type, `${spaceId}-cr1`, undefined, 'open'],
        [E.updated.type, `${spaceId}-cr2`, undefined, 'merged'],
        [E.commentUpdated.type, `${spaceId}-cr1`, `${spaceId}-c1`, 'open'],
        [E.commentUpdated.type, `${spaceId}-cr1`, `${spaceId}-c2`, 'resolved'],
      ]),
    );
    expect(states).toHaveLength(4);
  });
});
