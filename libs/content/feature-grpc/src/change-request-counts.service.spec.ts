import { randomBytes } from 'node:crypto';
import { ChangeRequestEvents as C } from '@bindery/change-requests/client';
import { connectContent } from '@bindery/content/client';
import { IdentityEvents as I } from '@bindery/identity/client';
import { identityStandIn } from '@bindery/identity/projection';
import { createKafka, ensureTopics, EventEnvelope, topicOf } from '@bindery/platform/events';
import { eventually, ServiceUnderTest, startServiceUnderTest } from '@bindery/shared/testing';
import type { ContentDeps } from './content-deps';
import { contentServiceWith } from './content-server';

const admin = { userId: `admin-${randomBytes(3).toString('hex')}`, isInstanceAdmin: false };
const org = `org-${randomBytes(3).toString('hex')}`;
const namespace = `crc${randomBytes(3).toString('hex')}.`;

// In process against the real MongoDB and Kafka; change-requests is not running: the counts come from its events only.
describe("a space's change-request counts, from change-requests' events", () => {
  let service: ServiceUnderTest<ContentDeps>;
  let clients: ReturnType<typeof connectContent>;
  const kafka = createKafka((process.env['KAFKA_BROKERS'] ?? '127.0.0.1:25092').split(','), 'counts-test');
  const producer = kafka.producer();
  const topic = `${namespace}${topicOf('change-requests')}`;

  beforeAll(async () => {
    await ensureTopics(kafka, [topic]);
    await producer.connect();
    service = await startServiceUnderTest(contentServiceWith(Date.now, identityStandIn), { CONTENT_PURGE_EVERY_MS: '86400000', KAFKA_NAMESPACE: namespace });
    clients = connectContent(service.address, 20000);
    await service.running.deps.access.handlers[I.memberAdded.type](I.memberAdded.create('tests', admin.userId, { organizationId: org, userId: admin.userId, role: 'admin' }, org));
  });
  afterAll(async () => {
    clients?.close();
    await producer.disconnect();
    await service?.stop();
  });

  const publish = (spaceId: string, events: EventEnvelope[]) => producer.send({ topic, acks: -1, messages: events.map((e) => ({ key: spaceId, value: JSON.stringify(e) })) });
  const countsOf = async (spaceId: string) => (await clients.spaces.getSpace({ spaceId }, { caller: admin })).counts;

  it('follows change requests opened, drafted, merged and archived, and comments posted, resolved and deleted; a redelivered event counts once', async () => {
    const spaceId = (await clients.spaces.createSpace({ organizationId: org, title: 'Counted' }, { caller: admin })).id;
    const cr = (kind: 'created' | 'updated' | 'merged' | 'archived', id: string, status: string) =>
      C[kind].create('tests', spaceId, { organizationId: org, spaceId, changeRequestId: id, number: 1, status, revision: 'r', changedFields: [], actor: admin.userId }, org);
    const comment = (kind: 'commentCreated' | 'commentUpdated' | 'commentDeleted', id: string, status?: string) =>
      C[kind].create('tests', spaceId, { organizationId: org, spaceId, changeRequestId: 'cr1', commentId: id, status, actor: admin.userId }, org);

    const first = cr('created', 'cr1', 'open');
    await publish(spaceId, [first, cr('created', 'cr2', 'open'), cr('created', 'cr3', 'draft'), comment('commentCreated', 'c1', 'open')]);
    await eventually(async () => expect(await countsOf(spaceId)).toEqual({ changeRequests: 3, changeRequestsOpen: 2, changeRequestsDraft: 1, comments: 1 }));

    // cr2 merged, cr3 opened then archived; c2 posted and resolved, c3 posted and deleted; c1 and cr1 delivered again
    const redelivered = comment('commentCreated', 'c2', 'open');
    await publish(spaceId, [
      cr('merged', 'cr2', 'merged'),
      cr('updated', 'cr3', 'open'),
      cr('archived', 'cr3', 'archived'),
      redelivered,
      comment('commentUpdated', 'c2', 'resolved'),
    ]);
    await publish(spaceId, [first, redelivered, comment('commentCreated', 'c3', 'open'), comment('commentDeleted', 'c3', 'open'), comment('commentCreated', 'c4', 'open')]);
    await eventually(async () => expect(await countsOf(spaceId)).toEqual({ changeRequests: 3, changeRequestsOpen: 1, changeRequestsDraft: 0, comments: 2 }));
    // the redelivered c2 (open) was applied once, before its resolution: not again after it
    expect(await service.running.deps.changeRequestItems.commentStatus('c2')).toBe('resolved');
  });

  it('keeps the known status of a comment when an event written before comment events carried one says nothing', async () => {
    const spaceId = (await clients.spaces.createSpace({ organizationId: org, title: 'Older events' }, { caller: admin })).id;
    const comment = (kind: 'commentCreated' | 'commentUpdated', id: string, status?: string) =>
      C[kind].create('tests', spaceId, { organizationId: org, spaceId, changeRequestId: 'cr9', commentId: id, status, actor: admin.userId }, org);
    await publish(spaceId, [
      comment('commentCreated', `${spaceId}-a`),
      comment('commentCreated', `${spaceId}-b`, 'open'),
      comment('commentUpdated', `${spaceId}-b`, 'resolved'),
      comment('commentUpdated', `${spaceId}-b`),
    ]);
    await eventually(async () => expect(await service.running.deps.changeRequestItems.commentStatus(`${spaceId}-b`)).toBe('resolved'));
    expect((await countsOf(spaceId))?.comments).toBe(1);
  });
});
