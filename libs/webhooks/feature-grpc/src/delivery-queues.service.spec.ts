import { randomBytes } from 'node:crypto';
import * as nodeHttp from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChangeRequestEvents } from '@bindery/change-requests/client';
import { IdentityEvents as I } from '@bindery/identity/client';
import { identityStandIn } from '@bindery/identity/projection';
import { RunRecord, RUNS_COLLECTION } from '@bindery/platform/runs';
import { eventually, FAST_RUN_SETTINGS, ServiceUnderTest, startServiceUnderTest, waitForRun } from '@bindery/shared/testing';
import { DeliveryRecord } from '@bindery/webhooks/domain';

import { webhookSourceHandlers } from './event-sources';
import { createWebhook } from './webhooks.service';
import type { WebhooksDeps } from './webhooks-deps';
import { webhooksServiceWith } from './webhooks-server';

const hex = () => randomBytes(3).toString('hex');

/** A loopback receiver answering 204, 503, or nothing at all (`hang`); records what it accepted. */
async function receiver() {
  const accepted: { resource: string; status: string }[] = [];
  const state = { mode: 'ok' as 'ok' | 'fail' | 'hang', hanging: 0 };
  const server = nodeHttp.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (state.mode === 'hang') return void (state.hanging += 1);
      if (state.mode === 'fail') return void res.writeHead(503).end('down');
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      accepted.push({ resource: body.resource.id, status: body.data.status });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    accepted,
    state,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/**
 * A queue (one webhook, one resource) never stays stuck behind a delivery whose run ended without it
 * (cancelled, out of attempts): that delivery is recorded failed and the next one is sent. And a
 * receiver that answers again is noticed at its first success, not after every other delivery's
 * backoff. Retries here wait a minute (RUNS_BACKOFF_MS), so nothing below happens by a retry's timer.
 */
describe('webhook delivery queues (in process, real MongoDB and Kafka)', () => {
  let service: ServiceUnderTest<WebhooksDeps>;
  let hook: Awaited<ReturnType<typeof receiver>>;
  let deps: WebhooksDeps;

  beforeAll(async () => {
    hook = await receiver();
    service = await startServiceUnderTest(webhooksServiceWith({ accessSource: identityStandIn }), {
      ...FAST_RUN_SETTINGS,
      RUNS_BACKOFF_MS: '60000',
      WEBHOOKS_SETTLE_EVERY_MS: '200',
      BINDERY_OUTBOUND_ALLOW_PRIVATE: 'true',
    });
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

  const feed = (org: string, crId: string, status: string) =>
    webhookSourceHandlers(deps)[ChangeRequestEvents.updated.type](
      ChangeRequestEvents.updated.create(
        'tests',
        's1',
        { organizationId: org, spaceId: 's1', changeRequestId: crId, number: 1, status, revision: 'r', changedFields: [], actor: 'u' },
        org,
      ),
    );

  const deliveries = (webhookId: string) => deps.db.collection<DeliveryRecord>('deliveries').find({ webhookId }).sort({ seq: 1 }).toArray();

  /** Two events about one change request while the receiver fails: the first is sent (and fails), the second waits behind it. */
  async function stuckQueue(mode: 'fail' | 'hang') {
    const { org, webhookId } = await newWebhook();
    const cr = `cr-${hex()}`;
    hook.state.mode = mode;
    const hangingBefore = hook.state.hanging;
    await feed(org, cr, 'open');
    await feed(org, cr, 'draft');
    const first = await eventually(async () => {
      const [d, next] = await deliveries(webhookId);
      const sent = mode === 'fail' ? d?.attempts.length === 1 : hook.state.hanging > hangingBefore;
      if (!sent || next?.status !== 'queued') throw new Error(`first ${d?.status} (${d?.attempts.length} attempts), next ${next?.status}`);
      return d;
    }, 20000);
    return { webhookId, cr, first };
  }

  async function expectQueueMovesOn(webhookId: string, cr: string, firstId: string) {
    const settled = await eventually(async () => {
      const rows = await deliveries(webhookId);
      if (rows[1]?.status !== 'delivered') throw new Error(`deliveries ${rows.map((d) => d.status).join(', ')}`);
      return rows;
    }, 20000);
    expect(settled.map((d) => [d._id === firstId, d.status])).toEqual([
      [true, 'failed'],
      [false, 'delivered'],
    ]);
    expect(hook.accepted.filter((a) => a.resource === cr).map((a) => a.status)).toEqual(['draft']);
  }

  test('a delivery whose run is cancelled while it waits for a retry is failed, and the next one of its queue is sent', async () => {
    const { webhookId, cr, first } = await stuckQueue('fail');
    hook.state.mode = 'ok';
    expect((await deps.runs.cancel(first.runId!))?.status).toBe('cancelled');
    await expectQueueMovesOn(webhookId, cr, first._id);
  }, 30000);

  test('a delivery whose run is cancelled while the receiver hangs is failed, and the next one is sent', async () => {
    const { webhookId, cr, first } = await stuckQueue('hang');
    hook.state.mode = 'ok';
    await deps.runs.cancel(first.runId!);
    await waitForRun(deps.db, first.runId!, 'cancelled', 20000);
    await expectQueueMovesOn(webhookId, cr, first._id);
  }, 30000);

  test('a delivery whose run gives up after its last attempt is failed, and the next one is sent', async () => {
    const { webhookId, cr, first } = await stuckQueue('fail');
    // its next attempt is due now and is its last
    const runs = deps.db.collection<RunRecord>(RUNS_COLLECTION);
    const run = await runs.findOne({ _id: first.runId! });
    await runs.updateOne({ _id: first.runId!, status: 'pending' }, { $set: { attempt: run!.maxAttempts - 1, dueAt: new Date() } });
    const failed = await waitForRun(deps.db, first.runId!, 'failed', 20000);
    expect(failed.reason).toMatch(/gave up after \d+ attempts/);
    hook.state.mode = 'ok';
    await expectQueueMovesOn(webhookId, cr, first._id);
  }, 30000);

  test('a delivery that succeeds makes the webhook’s deliveries waiting for a retry due now', async () => {
    const { org, webhookId } = await newWebhook();
    const [a, b, c] = [`cr-${hex()}`, `cr-${hex()}`, `cr-${hex()}`];
    hook.state.mode = 'fail';
    await feed(org, a, 'open');
    await feed(org, b, 'open');
    await eventually(async () => {
      const rows = await deliveries(webhookId);
      if (rows.length !== 2 || rows.some((d) => d.attempts.length !== 1 || !d.nextAttemptAt)) throw new Error('not both failed once');
    }, 20000);
    hook.state.mode = 'ok';
    // a new event about another resource is sent at once; its success brings the two retries forward (a minute's backoff otherwise)
    await feed(org, c, 'open');
    await eventually(async () => {
      const rows = await deliveries(webhookId);
      if (rows.length !== 3 || rows.some((d) => d.status !== 'delivered')) throw new Error(`deliveries ${rows.map((d) => d.status).join(', ')}`);
    }, 15000);
    expect(hook.accepted.filter((x) => [a, b, c].includes(x.resource)).length).toBe(3);
  }, 30000);
});
