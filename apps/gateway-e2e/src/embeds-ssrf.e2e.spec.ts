import { assertErrorBody, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { createOrganization, createUser } from './fixtures';
import { Client, http } from './http-client';
import { createPublishedSite, createShareLink, siteToken } from './site-fixtures';
import { recorder, refusedUrlSpellings } from './ssrf-fixtures';

/**
 * An embed's URL is fetched through the outbound guard, in its default: every spelling of loopback,
 * private networks and cloud metadata is a 400 naming the host at most (never the URL), for a member
 * and a site token alike; a redirect to the canary is never followed (the redirector is refused
 * first); not one request reaches the canary. A name this machine cannot resolve (`localhost.`)
 * reaches nothing either: it is answered as the link of an unreachable URL.
 */
describe('embeds refuse loopback, private and metadata addresses (outbound guard on, as by default)', () => {
  let sut: SystemUnderTest;
  let member: Client;
  let renderer: Client;
  let spaceId: string;
  let canary: Awaited<ReturnType<typeof recorder>>;
  let redirector: Awaited<ReturnType<typeof recorder>>;

  beforeAll(async () => {
    canary = await recorder((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Canary</title>'));
    redirector = await recorder((_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${canary.port}/page` }).end());
    sut = await sharedSystem();
    expect(sut.env.BINDERY_OUTBOUND_ALLOW_PRIVATE).toBeUndefined();
    const owner = await createUser(sut, 'embed-ssrf-owner');
    const orgId = await createOrganization(sut, owner, 'Embed SSRF');
    member = http(sut.baseUrl, owner.token);
    spaceId = (await createSpace(member, orgId, { title: 'Embeds' })).id;
    const site = await createPublishedSite(member, orgId, [spaceId]);
    renderer = http(sut.baseUrl, await siteToken(member, site, (await createShareLink(member, orgId, site.id)).key));
  });
  afterAll(async () => {
    await canary?.close();
    await redirector?.close();
  });

  test('40+ spellings, as a member and as a site token: each 400 without the URL, nothing reaches the canary', async () => {
    const urls = refusedUrlSpellings(canary.port, redirector.port, '/page');
    expect(urls.length).toBeGreaterThanOrEqual(40);
    const unexpected: string[] = [];
    const unresolved = new Set<string>();
    for (const url of urls) {
      for (const client of [member, renderer]) {
        const res = await client.get(`/v1/spaces/${spaceId}/embed?url=${encodeURIComponent(url)}`);
        // a name this machine does not resolve (`localhost.`) reaches nothing: the link of an unreachable URL
        if (res.status === 200 && res.body.type === 'link' && !('icon' in res.body) && res.body.title !== 'Canary') {
          unresolved.add(new URL(url).hostname);
          continue;
        }
        if (res.status !== 400) unexpected.push(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
        else assertErrorBody(400, res.body);
        // the URL is never echoed in a refusal (it may carry credentials): the host at most
        if (/secret|meta-data|\/page/.test(JSON.stringify(res.body))) unexpected.push(`${url}: echoed ${JSON.stringify(res.body)}`);
      }
    }
    expect(unexpected).toEqual([]);
    expect([...unresolved].filter((host) => host !== 'localhost.')).toEqual([]);
    expect(canary.requests).toEqual([]);
    expect(redirector.requests).toEqual([]);
  }, 120_000);
});
