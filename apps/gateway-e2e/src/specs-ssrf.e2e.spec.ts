import { sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createOrganization, createUser } from './fixtures';
import { Client, http } from './http-client';
import { openapi30, processedSpec } from './spec-fixtures';
import { recorder, refusedUrlSpellings } from './ssrf-fixtures';

/**
 * A spec's URL and the external `$ref`s of its document are fetched through the outbound guard, in
 * its default: every spelling of loopback, private networks and cloud metadata is refused, a redirect
 * to the canary is never followed (the redirector itself is refused first), and not one request
 * reaches the canary. A spelling the gateway's schema refuses (another scheme) is a 400 at once;
 * the others end the processing with FETCH_ERROR, naming the host at most.
 */
describe('OpenAPI specs refuse loopback, private and metadata addresses (outbound guard on, as by default)', () => {
  let sut: SystemUnderTest;
  let admin: Client;
  let orgId: string;
  let canary: Awaited<ReturnType<typeof recorder>>;
  let redirector: Awaited<ReturnType<typeof recorder>>;

  beforeAll(async () => {
    canary = await recorder((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(openapi30('Canary')));
    redirector = await recorder((_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${canary.port}/openapi.json` }).end());
    sut = await sharedSystem();
    expect(sut.env.BINDERY_OUTBOUND_ALLOW_PRIVATE).toBeUndefined();
    const owner = await createUser(sut, 'spec-ssrf-owner');
    orgId = await createOrganization(sut, owner, 'Spec SSRF');
    admin = http(sut.baseUrl, owner.token);
  });
  afterAll(async () => {
    await canary?.close();
    await redirector?.close();
  });

  // Longer than the tier: 50 specs processed, each a run.
  test('40+ spellings as a source URL and as an external $ref: each refused, no version, nothing reaches the canary', async () => {
    const urls = refusedUrlSpellings(canary.port, redirector.port, '/openapi.json');
    expect(urls.length).toBeGreaterThanOrEqual(40);
    const accepted: Array<[string, string]> = [];
    const refusedAtOnce: string[] = [];
    for (const [i, url] of urls.entries()) {
      const asSource = await admin.put(`/v1/orgs/${orgId}/openapi/source-${i}`, { source: { url } });
      if (asSource.status === 400) refusedAtOnce.push(url);
      else {
        expect({ url, status: asSource.status }).toEqual({ url, status: 201 });
        accepted.push([`source-${i}`, url]);
      }
      const document = JSON.parse(openapi30());
      document.components.schemas.Pet = { $ref: url };
      expect((await admin.put(`/v1/orgs/${orgId}/openapi/ref-${i}`, { source: { text: JSON.stringify(document) } })).status).toBe(201);
      accepted.push([`ref-${i}`, url]);
    }
    // only other schemes are refused at once
    expect(refusedAtOnce.every((u) => !/^https?:/i.test(u))).toBe(true);
    const outcomes: Array<[string, unknown, unknown]> = [];
    for (const [slug, url] of accepted) {
      const spec = await processedSpec(admin, orgId, slug, 60000);
      // a $ref of another scheme is no fetch at all: the document is refused (PARSE_ERROR) before any
      const expected = /^https?:/i.test(url) ? 'FETCH_ERROR' : 'PARSE_ERROR';
      if (spec.lastProcessErrorCode !== expected || spec.lastVersion !== undefined) outcomes.push([slug, spec.lastProcessErrorCode, spec.lastVersion]);
      const messages = (spec.lastProcessedErrors as Array<{ message: string }>).map((e) => e.message).join(' ');
      // the source URL is never echoed (it may carry credentials): the host at most
      if (slug.startsWith('source-')) expect(messages).not.toMatch(/secret|meta-data|openapi\.json/);
    }
    expect(outcomes).toEqual([]);
    expect(canary.requests).toEqual([]);
    expect(redirector.requests).toEqual([]);
  }, 240_000);
});
