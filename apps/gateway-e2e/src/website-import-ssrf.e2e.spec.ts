import { assertErrorBody, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { createOrganization, createUser } from './fixtures';
import { Client, http } from './http-client';
import { recorder, refusedUrlSpellings } from './ssrf-fixtures';

describe('website import refuses loopback, private and metadata addresses (outbound guard on, as by default)', () => {
  let sut: SystemUnderTest;
  let admin: Client;
  let orgId: string;
  let canary: Awaited<ReturnType<typeof recorder>>;
  let redirector: Awaited<ReturnType<typeof recorder>>;

  beforeAll(async () => {
    canary = await recorder((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><main><h1>Canary</h1></main></body></html>'));
    redirector = await recorder((_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${canary.port}/docs/` }).end());
    sut = await sharedSystem();
    // The shared system runs with the guard's default: private addresses refused.
    expect(sut.env.BINDERY_OUTBOUND_ALLOW_PRIVATE).toBeUndefined();
    const owner = await createUser(sut, 'ssrf-owner');
    orgId = await createOrganization(sut, owner, 'SSRF');
    admin = http(sut.baseUrl, owner.token);
  });
  afterAll(async () => {
    await canary?.close();
    await redirector?.close();
  });

  test('40+ spellings: each 400 with the error body, nothing created, no request reaches the canary or the redirector', async () => {
    const spaceId = (await createSpace(admin, orgId, { title: 'Target' })).id;
    const revision = (await admin.get(`/v1/spaces/${spaceId}`)).body.revision;
    const urls = refusedUrlSpellings(canary.port, redirector.port);
    expect(urls.length).toBeGreaterThanOrEqual(40);
    const answers: Array<[string, number, string]> = [];
    for (const url of urls) {
      const res = await admin.post(`/v1/spaces/${spaceId}/content/import`, { source: 'website', url });
      assertErrorBody(res.status, res.body);
      answers.push([url, res.status, res.body.error.message]);
    }
    expect(answers.filter(([, status]) => status !== 400)).toEqual([]);
    // messages name the host at most, never the URL (it may carry credentials)
    expect(answers.filter(([, , message]) => /secret|meta-data|docs/.test(message))).toEqual([]);
    expect(canary.requests).toEqual([]);
    expect(redirector.requests).toEqual([]);
    expect((await admin.get(`/v1/spaces/${spaceId}`)).body.revision).toBe(revision);
    expect((await admin.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages).toEqual([]);
  });
});
