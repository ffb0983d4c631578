import { startSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { editChangeRequest, mergeChangeRequest, openChangeRequest } from './change-request-fixtures';
import { createOrganization, createUser, TestUser } from './fixtures';
import { Client, http } from './http-client';
import { createPublishedSite, createShareLink, CreatedSite } from './site-fixtures';

/**
 * The published reader on the real system: sites and content through the API, the reader reading
 * them through the published-URL resolver and site tokens. The reader's resolution TTL is set to a
 * minute here, so every change that shows within the test's bound was brought by an event
 * (sites.site.* and content.revision.created dropping the reader's caches).
 */
const TTL_MS = 60_000;

interface Answer {
  status: number;
  type: string;
  text: string;
}

async function read(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(url, { redirect: 'manual', headers });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

/** Polls `url` until `done` holds for its answer; answers the last answer and how long it took. */
async function until(url: string, done: (a: Answer) => boolean, timeoutMs = 10_000, headers: Record<string, string> = {}): Promise<{ answer: Answer; ms: number }> {
  const t0 = Date.now();
  for (;;) {
    const answer = await read(url, headers);
    if (done(answer) || Date.now() - t0 > timeoutMs) return { answer, ms: Date.now() - t0 };
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('the published reader (real system)', () => {
  let sut: SystemUnderTest;
  let owner: TestUser;
  let admin: Client;
  let orgId: string;
  let spaceId: string;
  let readerUrl: string;
  const pagePaths: Record<string, string> = {};

  beforeAll(async () => {
    sut = await startSystem({ READER_RESOLVE_TTL_MS: String(TTL_MS) });
    readerUrl = sut.env.BINDERY_READER_URL;
    // The reader is ready once its event consumer joined: nothing published from here on is missed.
    const ready = await until(`${readerUrl}/readyz`, (a) => a.status === 200, 30_000);
    expect(ready.answer.status).toBe(200);
    owner = await createUser(sut, 'reader-owner');
    admin = http(sut.baseUrl, owner.token);
    orgId = await createOrganization(sut, owner, 'Reader');
    spaceId = (await createSpace(admin, orgId, { title: 'Handbook' })).id;
    const cr = await openChangeRequest(admin, spaceId, 'First pages');
    await editChangeRequest(admin, spaceId, cr.id, [
      { operation: 'insert_page', title: 'Welcome aboard', document: { markdown: 'Start here: the **quasar** handbook.' } },
      { operation: 'insert_page', title: 'Installing', document: { markdown: 'Run the quasar installer.\n\n```sh\nquasar install\n```' } },
      { operation: 'insert_page', title: 'Configuring', document: { markdown: 'Set `QUASAR_HOME`.' } },
    ]);
    await mergeChangeRequest(admin, spaceId, cr.id);
    const content = await admin.get(`/v1/spaces/${spaceId}/content`);
    expect(content.status).toBe(200);
    for (const p of content.body.pages as Array<{ title: string; path: string }>) pagePaths[p.title] = p.path;
    expect(Object.keys(pagePaths).sort()).toEqual(['Configuring', 'Installing', 'Welcome aboard']);
  }, 240_000);

  afterAll(async () => {
    await sut?.stop();
  });

  describe('a public site', () => {
    let site: CreatedSite;
    beforeAll(async () => {
      site = await createPublishedSite(admin, orgId, [spaceId], 'public');
    });

    test('urls.published points at the reader', () => {
      expect(site.url.startsWith(`${readerUrl}/`)).toBe(true);
    });

    test('the root shows the first page, a page path its page, with the page tree', async () => {
      const root = await read(`${site.url}/`);
      expect(root.status).toBe(200);
      expect(root.type).toMatch(/^text\/html/);
      expect(root.text).toContain('Welcome aboard');
      expect(root.text).toContain('quasar');
      const page = await read(`${site.url}/${pagePaths.Installing}`);
      expect(page.status).toBe(200);
      expect(page.text).toMatch(/<h1[^>]*>Installing<\/h1>/);
      expect(page.text).toContain('quasar install');
      expect(page.text).toContain('Configuring');
    });

    test('<page>.md is the page in Markdown; llms.txt lists the pages; sitemap.xml their URLs', async () => {
      const md = await read(`${site.url}/${pagePaths.Installing}.md`);
      expect(md.status).toBe(200);
      expect(md.type).toMatch(/^text\/markdown/);
      expect(md.text).toContain('# Installing');
      expect(md.text).toContain('quasar install');
      const llms = await read(`${site.url}/llms.txt`);
      expect(llms.status).toBe(200);
      for (const title of ['Welcome aboard', 'Installing', 'Configuring']) expect(llms.text).toContain(`[${title}](`);
      expect(llms.text).toContain(`${site.url}/${pagePaths.Installing}.md`);
      const sitemap = await read(`${site.url}/sitemap.xml`);
      expect(sitemap.status).toBe(200);
      expect(sitemap.type).toMatch(/xml/);
      expect(sitemap.text).toContain(`<loc>${site.url}/${pagePaths.Installing}</loc>`);
    });

    test('a page that does not exist is a real 404', async () => {
      expect((await read(`${site.url}/no-such-page`)).status).toBe(404);
      expect((await read(`${readerUrl}/no-such-site-${Date.now()}/`)).status).toBe(404);
    });

    test('a merge to the published space shows on the next request (event, not TTL)', async () => {
      const url = `${site.url}/${pagePaths.Configuring}`;
      expect((await read(url)).text).toContain('QUASAR_HOME');
      const delays: number[] = [];
      const pages = await admin.get(`/v1/spaces/${spaceId}/content`);
      const configuring = (pages.body.pages as Array<{ id: string; title: string }>).find((p) => p.title === 'Configuring')!;
      for (let round = 1; round <= 3; round++) {
        const cr = await openChangeRequest(admin, spaceId, `Round ${round}`);
        await editChangeRequest(admin, spaceId, cr.id, [{ operation: 'update_page', page: configuring.id, document: { markdown: `Profile round ${round} applied.` } }]);
        const t0 = Date.now();
        await mergeChangeRequest(admin, spaceId, cr.id);
        const merged = Date.now();
        const { answer } = await until(url, (a) => a.text.includes(`Profile round ${round} applied.`), 10_000);
        expect(answer.text).toContain(`Profile round ${round} applied.`);
        delays.push(Date.now() - merged);
        console.log(`reader freshness: merge answered in ${merged - t0} ms, shown ${Date.now() - merged} ms after`);
      }
      // Far below the minute-long TTL: the content event dropped the reader's caches.
      expect(Math.max(...delays)).toBeLessThan(5000);
      console.log(`reader freshness after a merge (TTL ${TTL_MS} ms): ${delays.join(', ')} ms`);
    });

    test('an unpublished site answers 404 on the next requests; published again, 200', async () => {
      expect((await admin.post(`/v1/orgs/${orgId}/sites/${site.id}/unpublish`)).status).toBe(200);
      const gone = await until(`${site.url}/`, (a) => a.status === 404);
      expect(gone.answer.status).toBe(404);
      expect((await read(`${site.url}/${pagePaths.Installing}.md`)).status).toBe(404);
      expect((await read(`${site.url}/llms.txt`)).status).toBe(404);
      expect((await read(`${site.url}/sitemap.xml`)).status).toBe(404);
      expect((await admin.post(`/v1/orgs/${orgId}/sites/${site.id}/publish`)).status).toBe(200);
      const back = await until(`${site.url}/`, (a) => a.status === 200);
      expect(back.answer.status).toBe(200);
      console.log(`reader freshness: unpublish showed after ${gone.ms} ms, publish after ${back.ms} ms`);
    });
  });

  describe('a share-link site', () => {
    let site: CreatedSite;
    let link: { id: string; key: string };
    beforeAll(async () => {
      site = await createPublishedSite(admin, orgId, [spaceId], 'share-link');
      link = await createShareLink(admin, orgId, site.id);
    });

    test('404 without a key; with ~share/<key> a cookie, then 200; 404 once the link is deactivated', async () => {
      expect((await read(`${site.url}/`)).status).toBe(404);
      expect((await read(`${site.url}/${pagePaths.Installing}.md`)).status).toBe(404);
      expect((await read(`${site.url}/llms.txt`)).status).toBe(404);
      const entry = await fetch(`${site.url}/~share/${encodeURIComponent(link.key)}/${pagePaths.Installing}`, { redirect: 'manual' });
      expect(entry.status).toBe(303);
      expect(entry.headers.get('location')).toBe(`${new URL(site.url).pathname}/${pagePaths.Installing}`);
      const cookie = (entry.headers.get('set-cookie') ?? '').split(';')[0];
      expect(cookie).toMatch(/^bindery_share=/);
      const withKey = { cookie };
      const page = await read(`${site.url}/${pagePaths.Installing}`, withKey);
      expect(page.status).toBe(200);
      expect(page.text).toContain('quasar install');
      expect(page.text).not.toContain(link.key);
      expect((await read(`${site.url}/${pagePaths.Installing}.md`, withKey)).status).toBe(200);
      expect((await read(`${site.url}/llms.txt`, withKey)).status).toBe(200);

      const off = await admin.patch(`/v1/orgs/${orgId}/sites/${site.id}/share-links/${link.id}`, { active: false });
      expect(off.status).toBe(200);
      const gone = await until(`${site.url}/${pagePaths.Installing}`, (a) => a.status === 404, 10_000, withKey);
      expect(gone.answer.status).toBe(404);
      expect((await read(`${site.url}/${pagePaths.Installing}.md`, withKey)).status).toBe(404);
      console.log(`reader freshness: a deactivated share link showed after ${gone.ms} ms`);
    });
  });

  describe('sites of two organizations with one basename', () => {
    test('each organization publishes `docs`: both are read at their URLs; the earlier `<reader>/docs` form moves to the first; a hostname names its organization', async () => {
      // a `docs` in the first organization (the public site's above, or this one when it runs alone)
      await createPublishedSite(admin, orgId, [spaceId], 'public');
      const otherOrg = await createOrganization(sut, owner, 'Reader two');
      const created = await admin.post(`/v1/orgs/${otherOrg}/sites`, { title: 'Docs!', visibility: 'public', spaces: 'sample' });
      expect([created.status, created.body.basename]).toEqual([201, 'docs']);
      const published = await admin.post(`/v1/orgs/${otherOrg}/sites/${created.body.id}/publish`);
      const second = published.body.urls.published as string;
      expect(second).toBe(`${readerUrl}/${otherOrg}/docs`);

      const a = await read(`${readerUrl}/${orgId}/docs/${pagePaths.Installing}`);
      expect(a.status).toBe(200);
      expect(a.text).toContain('quasar install');
      const b = await read(`${second}/`);
      expect(b.status).toBe(200);
      expect(b.text).toContain('>Docs!</a>');
      expect(b.text).not.toContain('quasar');

      // `<reader>/docs/…` of earlier versions: the first created site of that basename, for good
      const moved = await fetch(`${readerUrl}/docs/${pagePaths.Installing}?from=old`, { redirect: 'manual' });
      expect([moved.status, moved.headers.get('location')]).toEqual([301, `${readerUrl}/${orgId}/docs/${pagePaths.Installing}?from=old`]);

      // the resolver's answer for that address (validated as the official PublishedSiteContentLookup)
      const lookup = await admin.post('/v1/urls/published', { url: `${readerUrl}/docs/` });
      expect([lookup.status, lookup.body]).toEqual([200, { target: 'content', redirect: `${readerUrl}/${orgId}/docs/` }]);

      // the organization's hostname (identity's event reaches sites) names it; its id moves there
      const hostname = `reader-two-${Date.now().toString(36)}`;
      expect((await admin.patch(`/v1/orgs/${otherOrg}`, { hostname })).status).toBe(200);
      const t0 = Date.now();
      let url = second;
      while (Date.now() - t0 < 10_000 && url === second) {
        url = (await admin.get(`/v1/orgs/${otherOrg}/sites/${created.body.id}`)).body.urls.published;
        if (url === second) await new Promise((r) => setTimeout(r, 20));
      }
      expect(url).toBe(`${readerUrl}/${hostname}/docs`);
      console.log(`published URLs: an organization's hostname showed in urls.published after ${Date.now() - t0} ms`);
      expect((await read(`${url}/`)).status).toBe(200);
      const byId = await until(`${second}/`, (x) => x.status === 301, 10_000);
      expect(byId.answer.status).toBe(301);
      expect((await fetch(`${second}/`, { redirect: 'manual' })).headers.get('location')).toBe(`${url}/`);
    });
  });
});
