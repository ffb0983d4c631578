import { sharedOutboundSystem, SystemUnderTest } from '@bindery/shared/testing';
import { verifySignature, WEBHOOK_EVENT_TYPES } from '@bindery/webhooks/client';
import { CR, editChangeRequest, mergeChangeRequest, openChangeRequest } from './change-request-fixtures';
import { createSpace } from './content-fixtures';
import { createOrganization, createUser, TestUser } from './fixtures';
import { Client, http } from './http-client';
import { createPublishedSite } from './site-fixtures';
import { ReceivedDelivery, webhookReceiver } from './webhook-fixtures';

const SECRET_PREFIXES = /gb_api_|bsite_|bshare_|whsec_/;

/**
 * Webhooks end to end (real system, outbound guard open to loopback): what users do through the API
 * reaches a receiver on loopback as signed deliveries, each event type once, in order per resource,
 * and survives the receiver being down.
 */
describe('webhooks (real system)', () => {
  let sut: SystemUnderTest;
  let owner: TestUser;
  let admin: Client;
  let orgId: string;
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>;

  beforeAll(async () => {
    sut = await sharedOutboundSystem();
    receiver = await webhookReceiver();
    owner = await createUser(sut, 'hooks-owner');
    admin = http(sut.baseUrl, owner.token);
    orgId = await createOrganization(sut, owner, 'Hooks');
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
  });

  /** Waits until the receiver holds deliveries of this organization satisfying `done`. */
  async function until(done: (mine: ReceivedDelivery[]) => boolean, what: string, withinMs = 30_000): Promise<ReceivedDelivery[]> {
    const t0 = Date.now();
    for (;;) {
      const mine = receiver.of(orgId);
      if (done(mine)) return mine;
      if (Date.now() - t0 > withinMs) throw new Error(`${what}: after ${withinMs} ms the receiver has ${JSON.stringify(mine.map((m) => m.json.type))}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('each event type arrives once, signed with the documented recipe, naming its resource and no secret', async () => {
    const created = await admin.post(`/v1/orgs/${orgId}/webhooks`, { url: receiver.url, events: [...WEBHOOK_EVENT_TYPES].filter((t) => t !== 'git_sync.completed') });
    expect(created.status).toBe(201);
    const secret = created.body.secret as string;
    expect(secret).toMatch(/^whsec_/);
    expect((await admin.get(`/v1/orgs/${orgId}/webhooks/${created.body.id}`)).body.secret).toBeUndefined();

    // what a team does in a day
    const space = await createSpace(admin, orgId, { title: 'Handbook' });
    expect((await admin.patch(`/v1/spaces/${space.id}`, { title: 'The handbook' })).status).toBe(200);
    const cr = await openChangeRequest(admin, space.id, 'First page');
    await editChangeRequest(admin, space.id, cr.id, [{ operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello.' } }]);
    expect((await admin.patch(CR(space.id, cr.id), { subject: 'The first page' })).status).toBe(200);
    await mergeChangeRequest(admin, space.id, cr.id);
    const dropped = await openChangeRequest(admin, space.id, 'Never mind');
    expect((await admin.patch(CR(space.id, dropped.id), { status: 'archived' })).status).toBe(200);
    const site = await createPublishedSite(admin, orgId, [space.id], 'public');
    expect((await admin.patch(`/v1/orgs/${orgId}/sites/${site.id}`, { title: 'Our handbook' })).status).toBe(200);
    expect((await admin.post(`/v1/orgs/${orgId}/sites/${site.id}/unpublish`)).status).toBe(200);
    expect((await admin.delete(`/v1/orgs/${orgId}/sites/${site.id}`)).status).toBe(205);
    const newcomer = await createUser(sut, 'hooks-newcomer');
    expect((await admin.post(`/v1/orgs/${orgId}/invites`, { emails: [{ email: newcomer.email, role: 'read' }] })).status).toBe(200);
    expect((await admin.patch(`/v1/orgs/${orgId}/members/${newcomer.id}`, { role: 'edit' })).status).toBe(200);
    expect((await admin.delete(`/v1/orgs/${orgId}/members/${newcomer.id}`)).status).toBe(204);
    const spare = await createSpace(admin, orgId, { title: 'Spare' });
    expect((await admin.delete(`/v1/spaces/${spare.id}`)).status).toBe(205);
    expect((await admin.post(`/v1/spaces/${spare.id}/restore`)).status).toBe(200);

    const wanted = [...WEBHOOK_EVENT_TYPES].filter((t) => t !== 'git_sync.completed');
    const mine = await until((m) => wanted.every((t) => m.some((d) => d.json.type === t)), 'every event type');
    const counts = Object.fromEntries(wanted.map((t) => [t, mine.filter((d) => d.json.type === t).length]));
    process.stdout.write(`webhook deliveries by type: ${JSON.stringify(counts)}\n`);
    for (const t of wanted) expect([t, counts[t] >= 1]).toEqual([t, true]);
    // each event exactly once (a type may come from several events: two spaces were created)
    expect(new Set(mine.map((d) => d.json.id)).size).toBe(mine.length);
    const now = Math.floor(Date.now() / 1000);
    for (const d of mine) {
      expect(verifySignature(secret, String(d.headers['x-bindery-signature']), d.body, now, 600)).toBe(true);
      expect(d.headers['x-bindery-event']).toBe(d.json.type);
      expect(d.body).not.toMatch(SECRET_PREFIXES);
    }
    const merged = mine.find((d) => d.json.type === 'change_request.merged')!;
    expect(merged.json.resource).toEqual({
      object: 'change-request',
      id: cr.id,
      urls: { location: expect.stringMatching(new RegExp(`/v1/spaces/${space.id}/change-requests/${cr.id}$`)) },
    });
    // a tampered body or another secret does not verify
    expect(verifySignature(secret, String(merged.headers['x-bindery-signature']), merged.body.replace('merged', 'Merged'), now, 600)).toBe(false);
    expect(verifySignature('whsec_other', String(merged.headers['x-bindery-signature']), merged.body, now, 600)).toBe(false);

    // the deliveries as the API lists them
    const deliveries = await admin.get(`/v1/orgs/${orgId}/webhooks/${created.body.id}/deliveries?limit=100`);
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.items.every((d: { status: string }) => d.status === 'delivered')).toBe(true);
    expect((await admin.delete(`/v1/orgs/${orgId}/webhooks/${created.body.id}`)).status).toBe(205);
  });

  it('a receiver down for a while gets every delivery afterwards, in order per resource', async () => {
    const space = await createSpace(admin, orgId, { title: 'Renamed often' });
    const hook = await admin.post(`/v1/orgs/${orgId}/webhooks`, { url: receiver.url, events: ['space.updated'] });
    const before = receiver.of(orgId).length;
    receiver.state.down = true;
    const titles = Array.from({ length: 6 }, (_, i) => `Title ${i + 1}`);
    for (const title of titles) expect((await admin.patch(`/v1/spaces/${space.id}`, { title })).status).toBe(200);
    // until the receiver has refused a few attempts
    for (const t0 = Date.now(); receiver.refused() < 2;) {
      if (Date.now() - t0 > 30_000) throw new Error('no attempt reached the receiver');
      await new Promise((r) => setTimeout(r, 50));
    }
    receiver.state.down = false;
    const mine = await until((m) => m.slice(before).filter((d) => d.json.type === 'space.updated' && d.json.resource.id === space.id).length >= titles.length, 'all six', 60_000);
    const updates = mine.slice(before).filter((d) => d.json.type === 'space.updated' && d.json.resource.id === space.id);
    expect(updates).toHaveLength(titles.length);
    // in the order they happened: the events' ids sort by time
    const ids = updates.map((d) => d.json.id);
    expect(ids).toEqual([...ids].sort());
    const deliveries = await admin.get(`/v1/orgs/${orgId}/webhooks/${hook.body.id}/deliveries`);
    const first = deliveries.body.items[deliveries.body.items.length - 1];
    expect(first.attempts[0]).toMatchObject({ status: 503, error: 'the receiver answered 503', responseExcerpt: 'deploying' });
    expect(first.status).toBe('delivered');
  });
});
