import { randomBytes } from 'node:crypto';
import * as nodeHttp from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChangeRequestEvents } from '@bindery/change-requests/client';
import { IdentityEvents as I } from '@bindery/identity/client';
import { identityStandIn } from '@bindery/identity/projection';
import { internalCaller } from '@bindery/platform/grpc';
import { eventually, FAST_RUN_SETTINGS, ServiceUnderTest, startServiceUnderTest } from '@bindery/shared/testing';
import { connectWebhooks, verifySignature } from '@bindery/webhooks/client';

import { webhookSourceHandlers } from './event-sources';
import type { WebhooksDeps } from './webhooks-deps';
import { webhooksServiceWith } from './webhooks-server';

const hex = () => randomBytes(3).toString('hex');
const who = (userId: string) => ({ caller: { userId, isInstanceAdmin: false } });

interface Received {
  body: string;
  headers: nodeHttp.IncomingHttpHeaders;
}

/** A loopback receiver: records every request; `fail` answers 503 to the next n requests. */
async function receiver() {
  const received: Received[] = [];
  let failNext = 0;
  const server = nodeHttp.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (failNext > 0) {
        failNext -= 1;
        return void res.writeHead(503).end('busy '.repeat(400));
      }
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook?token=receiver-token`,
    received,
    fail: (n: number) => void (failNext = n),
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/**
 * The service tier of webhooks: in process on the real MongoDB and Kafka, roles fed to its projection
 * as identity's events would, internal events handed to its consumer's handlers, deliveries received
 * by a loopback server (private addresses allowed here; the e2e tests check the guard's refusals).
 */
describe('webhooks service (in process, real MongoDB and Kafka)', () => {
  let service: ServiceUnderTest<WebhooksDeps>;
  let clients: ReturnType<typeof connectWebhooks>;
  let now = Date.now();
  let hook: Awaited<ReturnType<typeof receiver>>;

  beforeAll(async () => {
    hook = await receiver();
    service = await startServiceUnderTest(webhooksServiceWith({ accessSource: identityStandIn, clock: () => now }), {
      ...FAST_RUN_SETTINGS,
      BINDERY_OUTBOUND_ALLOW_PRIVATE: 'true',
    });
    clients = connectWebhooks(service.address, 10000);
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
    await hook?.close();
  });

  async function newOrg() {
    const org = `org-${hex()}`;
    for (const role of ['admin', 'edit', null]) {
      const userId = `${role ?? 'guest'}-${org}`;
      await service.running.deps.access.handlers[I.memberAdded.type](I.memberAdded.create('tests', userId, { organizationId: org, userId, role: role ?? undefined }, org));
    }
    return { org, admin: who(`admin-${org}`) };
  }

  /** What change-requests publishes when change request `n` of a space changes. */
  const crEvent = (org: string, spaceId: string, crId: string, status: string, kind: 'created' | 'updated' | 'merged' = 'updated') =>
    ChangeRequestEvents[kind].create(
      'tests',
      spaceId,
      { organizationId: org, spaceId, changeRequestId: crId, number: 1, status, revision: 'r', changedFields: [], actor: 'u' },
      org,
    );

  const feed = (event: ReturnType<typeof crEvent>) => webhookSourceHandlers(service.running.deps)[event.type](event);

  test('only organization administrators see and manage webhooks; the secret is answered once', async () => {
    const o = await newOrg();
    const created = await clients.webhooks.createWebhook({ organizationId: o.org, url: hook.url, events: ['change_request.merged'] }, o.admin);
    expect(created.secret).toMatch(/^whsec_/);
    expect(JSON.stringify(await clients.webhooks.getWebhook({ organizationId: o.org, webhookId: created.webhook!.id }, o.admin))).not.toContain(created.secret);
    expect(JSON.stringify(await clients.webhooks.listWebhooks({ organizationId: o.org, page: undefined }, o.admin))).not.toContain(created.secret);
    for (const [as, kind] of [
      [who(`edit-${o.org}`), 'forbidden'],
      [who(`guest-${o.org}`), 'forbidden'],
      [who('someone-else'), 'not_found'],
    ] as const) {
      await expect(clients.webhooks.listWebhooks({ organizationId: o.org, page: undefined }, as)).rejects.toMatchObject({ kind });
      await expect(clients.webhooks.getWebhook({ organizationId: o.org, webhookId: created.webhook!.id }, as)).rejects.toMatchObject({ kind });
    }
    await expect(clients.webhooks.createWebhook({ organizationId: o.org, url: 'ftp://example.com/x', events: ['site.created'] }, o.admin)).rejects.toMatchObject({
      kind: 'invalid',
    });
    await expect(clients.webhooks.createWebhook({ organizationId: o.org, url: hook.url, events: ['no.such.event'] }, o.admin)).rejects.toMatchObject({ kind: 'invalid' });
  });

  test('deliveries are signed, sent once per event, in order per resource even when the receiver fails for a while', async () => {
    const o = await newOrg();
    const { webhook, secret } = await clients.webhooks.createWebhook(
      { organizationId: o.org, url: hook.url, events: ['change_request.updated', 'change_request.merged'] },
      o.admin,
    );
    const before = hook.received.length;
    hook.fail(3);
    const events = [
      crEvent(o.org, 's1', 'cr1', 'open'),
      crEvent(o.org, 's1', 'cr1', 'draft'),
      crEvent(o.org, 's1', 'cr1', 'merged', 'merged'),
      crEvent(o.org, 's1', 'cr2', 'open'),
    ];
    for (const e of events) await feed(e);
    // a Kafka redelivery of an event already recorded adds no delivery
    await feed(events[0]);
    // an event type the webhook did not ask for is not sent
    await feed(crEvent(o.org, 's1', 'cr1', 'open', 'created'));
    // nor change-requests announcing a state it holds (no field changed, an internal actor)
    await feed(
      ChangeRequestEvents.updated.create(
        'tests',
        's1',
        {
          organizationId: o.org,
          spaceId: 's1',
          changeRequestId: 'cr3',
          number: 3,
          status: 'open',
          revision: 'r',
          changedFields: [],
          actor: internalCaller('change-requests').userId,
        },
        o.org,
      ),
    );
    const got = await eventually(async () => {
      const mine = hook.received.slice(before).filter((r) => JSON.parse(r.body).organization === o.org);
      if (mine.length < 4) throw new Error(`${mine.length} of 4 received`);
      return mine;
    }, 20000);
    expect(got).toHaveLength(4);
    expect(got.some((r) => JSON.parse(r.body).resource.id === 'cr3')).toBe(false);
    for (const r of got) expect(verifySignature(secret, String(r.headers['x-bindery-signature']), r.body, Math.floor(Date.now() / 1000), 3600)).toBe(true);
    const cr1 = got.map((r) => JSON.parse(r.body)).filter((b) => b.resource.id === 'cr1');
    expect(cr1.map((b) => [b.type, b.data.status])).toEqual([
      ['change_request.updated', 'open'],
      ['change_request.updated', 'draft'],
      ['change_request.merged', 'merged'],
    ]);
    expect(cr1.map((b) => b.id)).toEqual(events.slice(0, 3).map((e) => e.id));
    expect(cr1[0].resource.urls.location).toBe('http://127.0.0.1:8080/v1/spaces/s1/change-requests/cr1');
    // the failed attempts are recorded with their status and an excerpt of the answer, at most 1,024 bytes
    const deliveries = await clients.webhooks.listDeliveries({ organizationId: o.org, webhookId: webhook!.id, page: undefined }, o.admin);
    expect(deliveries.items.map((d) => d.status)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    const attempts = deliveries.items.flatMap((d) => d.attempts);
    expect(attempts.filter((a) => a.status === 503)).toHaveLength(3);
    expect(attempts.find((a) => a.status === 503)!.responseExcerpt!.length).toBe(1024);
    expect(JSON.stringify(deliveries)).not.toContain('receiver-token');
  });

  test('a redelivery sends the same event again; a day of failures disables the webhook with its reason', async () => {
    const o = await newOrg();
    const { webhook } = await clients.webhooks.createWebhook({ organizationId: o.org, url: hook.url, events: ['change_request.updated'] }, o.admin);
    await feed(crEvent(o.org, 's2', 'cr9', 'open'));
    const first = await eventually(async () => {
      const [d] = (await clients.webhooks.listDeliveries({ organizationId: o.org, webhookId: webhook!.id, page: undefined }, o.admin)).items;
      if (d?.status !== 'delivered') throw new Error(`still ${d?.status}`);
      return d;
    }, 20000);
    const again = await clients.webhooks.redeliver({ organizationId: o.org, webhookId: webhook!.id, deliveryId: first.id }, o.admin);
    expect(again).toMatchObject({ eventId: first.eventId, redeliveryOf: first.id });
    await eventually(async () => {
      const d = (await clients.webhooks.listDeliveries({ organizationId: o.org, webhookId: webhook!.id, page: undefined }, o.admin)).items.find((x) => x.id === again.id);
      if (d?.status !== 'delivered') throw new Error(`redelivery ${d?.status}`);
    }, 20000);

    hook.fail(1_000_000);
    await feed(crEvent(o.org, 's2', 'cr9', 'draft'));
    await eventually(async () => {
      const items = (await clients.webhooks.listDeliveries({ organizationId: o.org, webhookId: webhook!.id, page: undefined }, o.admin)).items;
      // the failing delivery's first attempt is made before the clock moves a day (the others were delivered;
      // their times tie under the fixed clock, so the list's order does not tell which is which)
      if (!items.some((d) => d.status !== 'delivered' && d.attempts.length)) throw new Error('no failed attempt yet');
    }, 20000);
    now += 24 * 60 * 60 * 1000 + 1000;
    const disabled = await eventually(async () => {
      const w = await clients.webhooks.getWebhook({ organizationId: o.org, webhookId: webhook!.id }, o.admin);
      if (w.active) throw new Error('still active');
      return w;
    }, 20000);
    hook.fail(0);
    expect(disabled.disabledReason).toMatch(/^Deliveries failed for a day \(last: the receiver answered 503\)/);
    const items = (await clients.webhooks.listDeliveries({ organizationId: o.org, webhookId: webhook!.id, page: undefined }, o.admin)).items;
    expect(items.map((d) => d.status).sort()).toEqual(['delivered', 'delivered', 'failed']);
    expect(items.find((d) => d.status === 'failed')!.attempts.every((a) => a.status === 503)).toBe(true);
    // turned on again, it sends what comes next
    const on = await clients.webhooks.updateWebhook({ organizationId: o.org, webhookId: webhook!.id, active: true, events: [], setEvents: false, description: undefined }, o.admin);
    expect([on.active, on.disabledReason]).toEqual([true, undefined]);
  });
});
