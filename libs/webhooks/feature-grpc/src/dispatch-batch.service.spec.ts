import { randomBytes } from 'node:crypto';
import * as nodeHttp from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChangeRequestEvents } from '@bindery/change-requests/client';
import { IdentityEvents as I } from '@bindery/identity/client';
import { identityStandIn } from '@bindery/identity/projection';
import type { EventEnvelope } from '@bindery/platform/events';
import { mongoProcessedEvents } from '@bindery/platform/mongo';
import { eventually, FAST_RUN_SETTINGS, ServiceUnderTest, startServiceUnderTest } from '@bindery/shared/testing';
import type { DeliveryRecord } from '@bindery/webhooks/domain';

import { webhookSourceBatch, webhookSourceHandlers } from './event-sources';
import { createWebhook } from './webhooks.service';
import type { WebhooksDeps } from './webhooks-deps';
import { webhooksServiceWith } from './webhooks-server';

const hex = () => randomBytes(3).toString('hex');

/** A loopback receiver answering 204; records the resource and status of each payload, in arrival order. */
async function receiver() {
  const accepted: { resource: string; status: string }[] = [];
  const server = nodeHttp.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      accepted.push({ resource: body.resource.id, status: body.data.status });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    accepted,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/**
 * The deliveries consumer applies a fetched batch in one transaction with the batch's markers (the
 * path the consumer takes, called here as it calls it): the deliveries of each queue keep the
 * events' order, and a batch delivered again (the process died after the commit, before the offsets
 * were committed) records nothing more.
 */
describe('a batch of events recorded in one transaction (in process, real MongoDB)', () => {
  let service: ServiceUnderTest<WebhooksDeps>;
  let hook: Awaited<ReturnType<typeof receiver>>;
  let deps: WebhooksDeps;

  beforeAll(async () => {
    hook = await receiver();
    service = await startServiceUnderTest(webhooksServiceWith({ accessSource: identityStandIn }), { ...FAST_RUN_SETTINGS, BINDERY_OUTBOUND_ALLOW_PRIVATE: 'true' });
    deps = service.running.deps;
  });
  afterAll(async () => {
    await service?.stop();
    await hook?.close();
  });

  async function newWebhook() {
    const org = `org-${hex()}`;
    const userId = `admin-${org}`;
    await deps.access.handlers[I.memberAdded.type](I.memberAdded.create('tests', userId, { organizationId: org, userId, role: 'admin' }, org));
    const webhook = await createWebhook(deps, { userId, isInstanceAdmin: false }, org, { url: hook.url, events: ['change_request.updated'] });
    return { org, webhookId: webhook._id };
  }

  const updated = (org: string, crId: string, status: string) =>
    ChangeRequestEvents.updated.create(
      'tests',
      's1',
      { organizationId: org, spaceId: 's1', changeRequestId: crId, number: 1, status, revision: 'r', changedFields: ['status'], actor: 'u' },
      org,
    );

  const deliveries = (webhookId: string) => deps.db.collection<DeliveryRecord>('deliveries').find({ webhookId }).sort({ seq: 1 }).toArray();

  /** What the consumer does with a fetched batch: the events not applied before, to the batch handler, with their markers. */
  async function applyBatch(group: string, events: EventEnvelope[]) {
    const handlers = webhookSourceHandlers(deps);
    const batch = webhookSourceBatch(deps, handlers);
    return mongoProcessedEvents(deps.db).applyManyOnce!(
      group,
      events.map((e) => e.id),
      (fresh, context) =>
        batch(
          events.filter((e) => fresh.has(e.id)),
          context,
        ),
    );
  }

  test('deliveries of several resources keep their order per resource, and a batch delivered again changes nothing', async () => {
    const { org, webhookId } = await newWebhook();
    const other = await newWebhook();
    const [a, b, c] = [`cr-${hex()}`, `cr-${hex()}`, `cr-${hex()}`];
    const statuses = ['s1', 's2', 's3', 's4'];
    const events: EventEnvelope[] = [];
    for (const status of statuses) for (const cr of [a, b]) events.push(updated(org, cr, status));
    events.push(updated(other.org, c, 's1'), updated(other.org, c, 's2'));
    const group = `tests.batch-${hex()}`;

    expect(await applyBatch(group, events)).toHaveLength(events.length);
    const recorded = await deliveries(webhookId);
    expect(recorded).toHaveLength(8);
    for (const cr of [a, b]) {
      const queue = recorded.filter((d) => d.queue.endsWith(cr));
      expect(queue.map((d) => (d.payload as { data: { status: string } }).data.status)).toEqual(statuses);
      expect(queue.map((d) => d.seq)).toEqual([1, 2, 3, 4]);
    }
    expect((await deliveries(other.webhookId)).map((d) => d.seq)).toEqual([1, 2]);

    // the same batch again (its offsets were never committed): no event is applied, no delivery added
    const queuesBefore = await deps.db.collection('delivery_queues').find({}).sort({ _id: 1 }).toArray();
    expect(await applyBatch(group, events)).toEqual([]);
    expect(await deliveries(webhookId)).toHaveLength(8);
    expect(await deliveries(other.webhookId)).toHaveLength(2);
    expect((await deps.db.collection('delivery_queues').find({}).sort({ _id: 1 }).toArray()).map((q) => [q._id, q['seq']])).toEqual(queuesBefore.map((q) => [q._id, q['seq']]));

    // every delivery is sent, once, in the order of its resource's events
    await eventually(async () => {
      const rows = [...(await deliveries(webhookId)), ...(await deliveries(other.webhookId))];
      if (rows.some((d) => d.status !== 'delivered')) throw new Error(`deliveries ${rows.map((d) => d.status).join(', ')}`);
    }, 20000);
    for (const cr of [a, b]) expect(hook.accepted.filter((x) => x.resource === cr).map((x) => x.status)).toEqual(statuses);
    expect(hook.accepted.filter((x) => x.resource === c).map((x) => x.status)).toEqual(['s1', 's2']);
  }, 40000);

  test('a batch some of whose events were applied one at a time records only the others, behind them', async () => {
    const { org, webhookId } = await newWebhook();
    const cr = `cr-${hex()}`;
    const events = ['s1', 's2', 's3'].map((s) => updated(org, cr, s));
    const group = `tests.batch-${hex()}`;
    // the first event was applied alone (a batch that failed fell back to one at a time) before the process died
    const handler = webhookSourceHandlers(deps)[ChangeRequestEvents.updated.type];
    await mongoProcessedEvents(deps.db).applyOnce(group, events[0].id, (context) => handler(events[0], context));
    expect(await applyBatch(group, events)).toEqual([events[1].id, events[2].id]);
    const recorded = await deliveries(webhookId);
    expect(recorded.map((d) => [(d.payload as { data: { status: string } }).data.status, d.seq])).toEqual([
      ['s1', 1],
      ['s2', 2],
      ['s3', 3],
    ]);
  }, 30000);
});
