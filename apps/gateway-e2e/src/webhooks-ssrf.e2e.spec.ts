import { sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { createOrganization, createUser } from './fixtures';
import { Client, http } from './http-client';
import { recorder, refusedUrlSpellings } from './ssrf-fixtures';

/**
 * Webhook receivers go through the outbound guard as it is by default: every spelling of loopback,
 * private networks and cloud metadata is either refused when the webhook is created (another scheme,
 * credentials: 400) or refused at each delivery (an attempt with no HTTP answer and a reason), and not one
 * request reaches the canary or the redirector that points at it.
 */
describe('webhooks refuse loopback, private and metadata receivers (outbound guard on, as by default)', () => {
  let sut: SystemUnderTest;
  let admin: Client;
  let orgId: string;
  let canary: Awaited<ReturnType<typeof recorder>>;
  let redirector: Awaited<ReturnType<typeof recorder>>;

  beforeAll(async () => {
    canary = await recorder((_req, res) => res.writeHead(200).end('reached'));
    redirector = await recorder((_req, res) => res.writeHead(307, { location: `http://127.0.0.1:${canary.port}/hook` }).end());
    sut = await sharedSystem();
    expect(sut.env.BINDERY_OUTBOUND_ALLOW_PRIVATE).toBeUndefined();
    const owner = await createUser(sut, 'hooks-ssrf-owner');
    orgId = await createOrganization(sut, owner, 'Hooks SSRF');
    admin = http(sut.baseUrl, owner.token);
  }, 60_000);
  afterAll(async () => {
    await canary?.close();
    await redirector?.close();
  });

  test('40+ spellings: each refused at creation or at its delivery; nothing reaches the canary', async () => {
    const urls = refusedUrlSpellings(canary.port, redirector.port, '/hook');
    expect(urls.length).toBeGreaterThanOrEqual(40);
    const accepted: Array<{ url: string; id: string }> = [];
    const refusedAtOnce: string[] = [];
    for (const url of urls) {
      const res = await admin.post(`/v1/orgs/${orgId}/webhooks`, { url, events: ['space.updated'] });
      if (res.status === 400) refusedAtOnce.push(url);
      else {
        expect({ url, status: res.status }).toEqual({ url, status: 201 });
        accepted.push({ url, id: res.body.id });
      }
    }
    // refused at once: other schemes, credentials, and what is no URI as RFC 3986 writes it (full-width digits)
    expect(refusedAtOnce.filter((u) => /^https?:\/\/[\x21-\x7e]+$/i.test(u) && !u.includes('@'))).toEqual([]);
    // one event: each accepted webhook gets a delivery, and its attempt is refused by the guard
    const space = await createSpace(admin, orgId, { title: 'Probe' });
    expect((await admin.patch(`/v1/spaces/${space.id}`, { title: 'Probed' })).status).toBe(200);
    const outcomes: Array<[string, number, string]> = [];
    for (const { url, id } of accepted) {
      const t0 = Date.now();
      for (;;) {
        const [delivery] = (await admin.get(`/v1/orgs/${orgId}/webhooks/${id}/deliveries`)).body.items ?? [];
        const attempt = delivery?.attempts?.[0];
        if (attempt) {
          outcomes.push([url, attempt.status, attempt.error]);
          break;
        }
        if (Date.now() - t0 > 30_000) throw new Error(`${url}: no attempt after 30 s`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    process.stdout.write(`webhook receivers: ${urls.length} spellings, ${refusedAtOnce.length} refused at creation, ${accepted.length} refused at delivery\n`);
    for (const [url, status, error] of outcomes) {
      expect({ url, status }).toEqual({ url, status: 0 });
      expect(error).not.toContain(String(canary.port));
    }
    expect(canary.requests).toEqual([]);
    expect(redirector.requests).toEqual([]);
    // their retries would go on for a day: deleting the webhooks ends them
    for (const { id } of accepted) expect((await admin.delete(`/v1/orgs/${orgId}/webhooks/${id}`)).status).toBe(205);
  }, 120_000);
});
