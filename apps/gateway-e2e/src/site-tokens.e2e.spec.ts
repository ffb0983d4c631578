import { randomBytes } from 'node:crypto';
import { GitBookAPI } from 'gitbook-api-latest';
import { assertErrorBody, assertMatchesSpec, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { ContentWriter, contentWriter } from './content-writer';
import { createOrganization, createUser, TestUser } from './fixtures';
import { Client, http } from './http-client';
import { CreatedSite, createPublishedSite, createShareLink, shareUrl } from './site-fixtures';

/**
 * Site tokens through the gateway: a token of a published site reads that site's spaces and nothing
 * else, and stops working within about a second of the site being unpublished, its share link
 * deactivated or a space taken off it. Sites, share links and site spaces are made and changed
 * through the API; tokens come from the published-URL resolver, with the official 0.202.0 client.
 */
describe('site tokens (real system)', () => {
  let sut: SystemUnderTest;
  let owner: TestUser;
  let admin: Client;
  let writer: ContentWriter;
  let orgId: string;
  const space = { published: '', unlisted: '', foreign: '' };
  let pageId = '';
  let revisionId = '';

  const publishedSite = (spaceIds: string[]) => createPublishedSite(admin, orgId, spaceIds);
  /** A site token of the site through a new share link of it; answers the token and the link. */
  async function tokenOf(site: CreatedSite): Promise<{ token: string; link: { id: string; key: string } }> {
    const link = await createShareLink(admin, orgId, site.id);
    const resolved = await new GitBookAPI({ endpoint: sut.baseUrl, authToken: owner.token }).urls.resolvePublishedContentByUrl({ url: shareUrl(site, link.key) });
    assertMatchesSpec('0.202.0', 'post', '/urls/published', 200, resolved.data);
    if (!('apiToken' in resolved.data)) throw new Error('the site URL resolved to a redirect');
    return { token: resolved.data.apiToken, link };
  }

  /** Polls until `path` answers `status` to `client`; answers how long that took (ms). */
  async function untilStatus(client: Client, path: string, status: number, withinMs: number): Promise<number> {
    const t0 = Date.now();
    for (;;) {
      const res = await client.get(path);
      if (res.status === status) return Date.now() - t0;
      if (Date.now() - t0 > withinMs) throw new Error(`${path} still answers ${res.status} after ${withinMs} ms`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  beforeAll(async () => {
    sut = await sharedSystem();
    owner = await createUser(sut, 'site-owner');
    admin = http(sut.baseUrl, owner.token);
    orgId = await createOrganization(sut, owner, 'Site tokens');
    const otherOrg = await createOrganization(sut, owner, 'Elsewhere');
    writer = contentWriter(sut);
    space.published = (await createSpace(admin, orgId, { title: 'Published' })).id;
    space.unlisted = (await createSpace(admin, orgId, { title: 'Unlisted' })).id;
    space.foreign = (await createSpace(admin, otherOrg, { title: 'Foreign' })).id;
    for (const id of Object.values(space)) {
      const r = await writer.apply(owner.id, id, [{ operation: 'insert_page', title: 'Getting Started', document: { markdown: 'Welcome.' } }]);
      if (id === space.published) {
        pageId = r.changes[0].page.id;
        revisionId = r.revisionId;
      }
    }
  }, 240_000);

  afterAll(async () => {
    writer?.close();
  });

  it('reads the content of its site, every answer official; everything else is 403, other spaces 404', async () => {
    const site = await publishedSite([space.published]);
    const { token } = await tokenOf(site);
    const reader = http(sut.baseUrl, token);
    const p = space.published;
    const reads: Array<[string, string, string]> = [
      ['/spaces/{spaceId}', `/v1/spaces/${p}`, '0.130.0'],
      ['/spaces/{spaceId}/content/pages', `/v1/spaces/${p}/content/pages`, '0.130.0'],
      ['/spaces/{spaceId}/content/page/{pageId}', `/v1/spaces/${p}/content/page/${pageId}`, '0.130.0'],
      ['/spaces/{spaceId}/content/path/{pagePath}', `/v1/spaces/${p}/content/path/getting-started`, '0.130.0'],
      ['/spaces/{spaceId}/content/page/{pageId}', `/v1/spaces/${p}/content/page/${pageId}?format=markdown`, '0.130.0'],
      ['/spaces/{spaceId}/content/files', `/v1/spaces/${p}/content/files`, '0.130.0'],
      // the revision itself, as GitBook's renderer reads it (a site token reads the revisions of its spaces)
      ['/spaces/{spaceId}/revisions/{revisionId}', `/v1/spaces/${p}/revisions/${revisionId}?metadata=true`, '0.130.0'],
      ['/spaces/{spaceId}/revisions/{revisionId}/pages', `/v1/spaces/${p}/revisions/${revisionId}/pages`, '0.130.0'],
      ['/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}', `/v1/spaces/${p}/revisions/${revisionId}/page/${pageId}`, '0.130.0'],
      ['/spaces/{spaceId}/revisions/{revisionId}/path/{pagePath}', `/v1/spaces/${p}/revisions/${revisionId}/path/getting-started`, '0.130.0'],
      ['/spaces/{spaceId}/revisions/{revisionId}/files', `/v1/spaces/${p}/revisions/${revisionId}/files`, '0.130.0'],
    ];
    for (const [specPath, url, version] of reads) {
      const res = await reader.get(url);
      expect({ url, status: res.status }).toEqual({ url, status: 200 });
      assertMatchesSpec(version as '0.130.0', 'get', specPath, 200, res.body);
    }
    const spaceBody = (await reader.get(`/v1/spaces/${p}`)).body;
    expect(spaceBody.permissions).toMatchObject({ view: true, comment: false, edit: false, admin: false });
    expect((await reader.get(`/v1/spaces/${p}/content/page/${pageId}?format=markdown`)).body.markdown).toContain('Welcome.');

    const nowhere = randomBytes(15).toString('base64url');
    const answers = async (requests: Array<[string, string, unknown?]>) => {
      const out: Record<string, number> = {};
      for (const [method, url, body] of requests) {
        const res = await reader.send(method, url, body);
        if (res.status !== 200) assertErrorBody(res.status, res.body);
        const named = url.replace(p, '{published}').replace(space.unlisted, '{unlisted}').replace(space.foreign, '{foreign}').replace(nowhere, '{nowhere}');
        out[`${method} ${named.replace(orgId, '{org}').replace(revisionId, '{revision}')}`] = res.status;
      }
      return out;
    };
    expect(
      await answers([
        ['GET', `/v1/spaces/${space.unlisted}`],
        ['GET', `/v1/spaces/${space.unlisted}/content/pages`],
        ['GET', `/v1/spaces/${space.foreign}`],
        ['GET', `/v1/spaces/${space.foreign}/content/path/getting-started`],
        ['GET', `/v1/spaces/${nowhere}`],
        ['GET', `/v1/spaces/${p}/content`],
        ['GET', `/v1/spaces/${p}/links`],
        ['GET', `/v1/spaces/${p}/change-requests`],
        ['PATCH', `/v1/spaces/${p}`, { title: 'Defaced' }],
        ['DELETE', `/v1/spaces/${p}`],
        ['POST', `/v1/spaces/${p}/change-requests`, { subject: 'x' }],
        ['GET', `/v1/orgs/${orgId}`],
        ['GET', `/v1/orgs/${orgId}/spaces`],
        ['GET', '/v1/user'],
        ['GET', '/v1/orgs'],
      ]),
    ).toEqual({
      'GET /v1/spaces/{unlisted}': 404,
      'GET /v1/spaces/{unlisted}/content/pages': 404,
      'GET /v1/spaces/{foreign}': 404,
      'GET /v1/spaces/{foreign}/content/path/getting-started': 404,
      'GET /v1/spaces/{nowhere}': 404,
      'GET /v1/spaces/{published}/content': 403,
      'GET /v1/spaces/{published}/links': 403,
      'GET /v1/spaces/{published}/change-requests': 403,
      'PATCH /v1/spaces/{published}': 403,
      'DELETE /v1/spaces/{published}': 403,
      'POST /v1/spaces/{published}/change-requests': 403,
      'GET /v1/orgs/{org}': 403,
      'GET /v1/orgs/{org}/spaces': 403,
      'GET /v1/user': 403,
      'GET /v1/orgs': 403,
    });
    expect((await admin.get(`/v1/spaces/${p}`)).body.title).toBe('Published');
  });

  it('ends within about a second of the site being unpublished (SITE_TOKEN_CACHE_MS), and holds again once it is republished', async () => {
    const site = await publishedSite([space.published]);
    const reader = http(sut.baseUrl, (await tokenOf(site)).token);
    const path = `/v1/spaces/${space.published}/content/pages`;
    expect((await reader.get(path)).status).toBe(200);
    expect((await admin.post(`/v1/orgs/${orgId}/sites/${site.id}/unpublish`)).status).toBe(200);
    const after = await untilStatus(reader, path, 401, 3000);
    expect(after).toBeLessThan(1500);
    const refused = await reader.get(path);
    expect(refused.body).toEqual({ error: { code: 401, message: 'The site token is not valid.' } });
    expect((await admin.post(`/v1/orgs/${orgId}/sites/${site.id}/publish`)).status).toBe(200);
    await untilStatus(reader, path, 200, 3000);
  });

  it('minted through a share link, ends within about a second of the link being deactivated', async () => {
    const site = await publishedSite([space.published]);
    const { token, link } = await tokenOf(site);
    const reader = http(sut.baseUrl, token);
    const path = `/v1/spaces/${space.published}`;
    expect((await reader.get(path)).status).toBe(200);
    expect((await admin.patch(`/v1/orgs/${orgId}/sites/${site.id}/share-links/${link.id}`, { active: false })).status).toBe(200);
    expect(await untilStatus(reader, path, 401, 3000)).toBeLessThan(1500);
  });

  it('a space taken off the site leaves the scope within about a second (404 from then on)', async () => {
    const site = await publishedSite([space.published, space.unlisted]);
    const reader = http(sut.baseUrl, (await tokenOf(site)).token);
    const path = `/v1/spaces/${space.unlisted}/content/pages`;
    expect((await reader.get(path)).status).toBe(200);
    expect((await admin.delete(`/v1/orgs/${orgId}/sites/${site.id}/site-spaces/${site.siteSpaceIds[1]}`)).status).toBe(205);
    expect(await untilStatus(reader, path, 404, 3000)).toBeLessThan(1500);
    expect((await reader.get(`/v1/spaces/${space.published}`)).status).toBe(200);
  });

  it('a tampered or unknown site token is 401, and API tokens are untouched by the prefix', async () => {
    const site = await publishedSite([space.published]);
    const { token } = await tokenOf(site);
    const [header, body, signature] = token.split('.');
    const signed = `${header}.${body}`;
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    const widened = `${header}.${Buffer.from(JSON.stringify({ ...payload, organization: 'another' })).toString('base64url')}.${signature}`;
    for (const bad of [widened, `${signed}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`, 'bsite_nothing']) {
      const res = await http(sut.baseUrl, bad).get(`/v1/spaces/${space.published}`);
      expect(res.status).toBe(401);
      assertErrorBody(401, res.body);
      expect(JSON.stringify(res.body)).not.toContain(bad.slice(6, 20));
    }
    expect((await admin.get(`/v1/spaces/${space.published}`)).status).toBe(200);
  });
});
