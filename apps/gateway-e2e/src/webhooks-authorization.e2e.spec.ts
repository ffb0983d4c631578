import { sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { organizationWithEveryRole } from './fixtures';
import { http } from './http-client';
import { Caller, CALLERS, callerClients, Client, matrixMismatches, MatrixRow } from './matrix';

interface Ctx {
  orgId: string;
  webhookId: string;
  deliveryId: string;
  doomed: string;
}
type Row = MatrixRow<Ctx>;
const ONE = (x: Ctx) => `/v1/orgs/${x.orgId}/webhooks/${x.webhookId}`;

// Every webhook route × every kind of caller: organization admins only (like SAML providers).
//                                                                              admin create review edit comment read guest stranger bad none
const MATRIX: Row[] = [
  { name: 'GET …/webhooks', call: (c, x) => c.get(`/v1/orgs/${x.orgId}/webhooks`), expect: [200, 403, 403, 403, 403, 403, 403, 404, 401, 401] },
  {
    name: 'POST …/webhooks',
    call: (c, x) => c.post(`/v1/orgs/${x.orgId}/webhooks`, { url: 'https://hooks.example.com/in', events: ['site.published'] }),
    expect: [201, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  { name: 'GET …/webhooks/{id}', call: (c, x) => c.get(ONE(x)), expect: [200, 403, 403, 403, 403, 403, 403, 404, 401, 401] },
  { name: 'PATCH …/webhooks/{id}', call: (c, x) => c.patch(ONE(x), { description: 'seen by the matrix' }), expect: [200, 403, 403, 403, 403, 403, 403, 404, 401, 401] },
  { name: 'GET …/webhooks/{id}/deliveries', call: (c, x) => c.get(`${ONE(x)}/deliveries`), expect: [200, 403, 403, 403, 403, 403, 403, 404, 401, 401] },
  {
    name: 'POST …/deliveries/{id}/redeliver',
    call: (c, x) => c.post(`${ONE(x)}/deliveries/${x.deliveryId}/redeliver`),
    expect: [202, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  { name: 'DELETE …/webhooks/{id}', call: (c, x) => c.delete(`/v1/orgs/${x.orgId}/webhooks/${x.doomed}`), expect: [205, 403, 403, 403, 403, 403, 403, 404, 401, 401] },
];

describe('authorization matrix: webhooks', () => {
  let sut: SystemUnderTest;
  let clients: Record<Caller, Client>;
  let ctx: Ctx;

  beforeAll(async () => {
    sut = await sharedSystem();
    const org = await organizationWithEveryRole(sut);
    clients = callerClients(sut, org);
    const admin = http(sut.baseUrl, org.members.admin.token);
    const hook = await admin.post(`/v1/orgs/${org.orgId}/webhooks`, { url: 'https://hooks.example.com/in', events: ['space.updated'] });
    const doomed = await admin.post(`/v1/orgs/${org.orgId}/webhooks`, { url: 'https://hooks.example.com/gone', events: ['space.updated'] });
    // one delivery to redeliver: a space renamed (example.com is not reached from here; the attempt fails, which is fine)
    const space = await admin.post(`/v1/orgs/${org.orgId}/spaces`, { title: 'Matrix' });
    await admin.patch(`/v1/spaces/${space.body.id}`, { title: 'Matrix renamed' });
    let deliveryId = '';
    for (const t0 = Date.now(); !deliveryId;) {
      deliveryId = (await admin.get(`/v1/orgs/${org.orgId}/webhooks/${hook.body.id}/deliveries`)).body.items[0]?.id ?? '';
      if (!deliveryId && Date.now() - t0 > 30_000) throw new Error('no delivery recorded');
      if (!deliveryId) await new Promise((r) => setTimeout(r, 50));
    }
    ctx = { orgId: org.orgId, webhookId: hook.body.id, deliveryId, doomed: doomed.body.id };
  }, 120_000);

  it('answers every caller as written, with 0 mismatches; no answer shows a secret but the creation', async () => {
    const leaks: string[] = [];
    const mismatches = await matrixMismatches(MATRIX, CALLERS, clients, ctx, (res) => {
      const text = JSON.stringify(res.body) ?? '';
      if (res.status !== 201 && text.includes('whsec_')) leaks.push(text);
    });
    expect(mismatches).toEqual([]);
    expect(leaks).toEqual([]);
    // the webhook's deliveries to an unreachable host would be retried for a day: deleting it ends them
    expect((await clients.admin.delete(`/v1/orgs/${ctx.orgId}/webhooks/${ctx.webhookId}`)).status).toBe(205);
  });
});
