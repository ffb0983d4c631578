import { connectMongo } from '@bindery/platform/mongo';
import { assertErrorBody, assertMatchesSpec, sharedOutboundSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { flatPages, Json } from './content-model-fixtures';
import { createOrganization, createUser, TestUser } from './fixtures';
import { Client, http } from './http-client';
import { startTestWebsite, TestWebsite } from './website-fixtures';

const OLD = '0.130.0';
const S = '/spaces/{spaceId}';

/** GET `path`, expecting 200, validated against the official operation of 0.130.0. */
async function read(client: Client, path: string, specPath: string): Promise<Json> {
  const res = await client.get(path);
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  assertMatchesSpec(OLD, 'get', specPath, 200, res.body);
  return res.body;
}

describe('website import into a space (POST /v1/spaces/{spaceId}/content/import)', () => {
  let sut: SystemUnderTest;
  let site: TestWebsite;
  let owner: TestUser;
  let orgId: string;
  let admin: Client;

  // Longer than the tier: starts its own system (outbound guard open to the loopback test site).
  beforeAll(async () => {
    site = await startTestWebsite();
    // The test site is on 127.0.0.1: this system lets the outbound guard reach loopback.
    sut = await sharedOutboundSystem();
    owner = await createUser(sut, 'import-owner');
    orgId = await createOrganization(sut, owner, 'Imports');
    admin = http(sut.baseUrl, owner.token);
  }, 180_000);
  afterAll(async () => {
    await site?.close();
  });

  test('a 50-page site: pages, tree from the URL paths, images as files, cross-links as page references, one revision, the run record', async () => {
    const spaceId = (await createSpace(admin, orgId, { title: 'Imported' })).id;
    const before = (await admin.get(`/v1/spaces/${spaceId}`)).body.revision;
    const res = await admin.post(`/v1/spaces/${spaceId}/content/import`, { source: 'website', url: `${site.origin}/docs/` });
    expect(res.status).toBe(201);
    assertMatchesSpec(OLD, 'post', `${S}/content/import`, 201, res.body);
    // 50 pages and 6 images stored; the private page (robots.txt) was found but not fetched
    expect(res.body).toEqual({ revision: expect.any(String), importedResources: 56, totalResources: 57 });

    const space = (await admin.get(`/v1/spaces/${spaceId}`)).body;
    expect(space.revision).toBe(res.body.revision);
    const revision = await read(admin, `/v1/spaces/${spaceId}/revisions/${res.body.revision}`, `${S}/revisions/{revisionId}`);
    expect(revision.parents).toEqual([before]);

    // pages and tree
    const tree = (await read(admin, `/v1/spaces/${spaceId}/content/pages`, `${S}/content/pages`)).pages as Json[];
    const all = flatPages(tree);
    expect(all).toHaveLength(50);
    const byTitle = new Map(all.map((p) => [p.title as string, p]));
    expect(tree.map((p) => p.title)).toEqual(['Home', 'Section 0', 'Section 1', 'Section 2', 'Section 3', 'Section 4']);
    for (const page of site.pages) {
      const imported = byTitle.get(page.title);
      expect(imported).toBeDefined();
      const expectedChildren = site.pages.filter((c) => c.parent === page.path).map((c) => c.title);
      expect(((imported!.pages ?? []) as Json[]).map((c) => c.title)).toEqual(expectedChildren);
    }
    expect(byTitle.get('Deeper 0.3')!.path).toBe('section-0/section-0-page-3/deep-03/deeper-03');

    // files: the logo once, one image per section, measured and typed from their bytes
    const files = (await read(admin, `/v1/spaces/${spaceId}/content/files?limit=50`, `${S}/content/files`)).items as Json[];
    expect(files.map((f) => f.name).sort()).toEqual(['logo.png', 'section-0.png', 'section-1.png', 'section-2.png', 'section-3.png', 'section-4.png']);
    const logo = files.find((f) => f.name === 'logo.png')!;
    expect(logo).toMatchObject({ contentType: 'image/png', size: site.images.get('/docs/assets/logo.png')!.length, dimensions: { width: 4, height: 3 } });
    const downloaded = await fetch(logo.downloadURL);
    expect(Buffer.from(await downloaded.arrayBuffer()).equals(site.images.get('/docs/assets/logo.png')!)).toBe(true);

    // links: every cross-link between imported pages is a page reference; images are file references
    const idOfPath = new Map(site.pages.map((p) => [p.path, byTitle.get(p.title)!.id as string]));
    for (const page of site.pages) {
      const id = idOfPath.get(page.path)!;
      const md = await read(admin, `/v1/spaces/${spaceId}/content/page/${id}?format=markdown`, `${S}/content/page/{pageId}`);
      for (const link of page.links) expect(md.markdown).toContain(`(/pages/${idOfPath.get(link)})`);
      for (const src of page.images) expect(md.markdown).toContain(`src="/files/${files.find((f) => f.name === src.split('/').pop())!.id}"`);
      // main content only: no navigation, header, footer, script or style
      expect(md.markdown).not.toMatch(/Footer text|Test site|color:red|var x/);
      expect(md.markdown).toContain('| Key  | Value');
      expect(md.markdown).toContain('```js');
    }
    const install = await read(admin, `/v1/spaces/${spaceId}/content/page/${idOfPath.get('/docs/s1/p2')}/links`, `${S}/content/page/{pageId}/links`);
    expect(install.items.length).toBeGreaterThan(0);
    for (const item of install.items as Json[]) expect(item.status).toBe('ok');
    const links = await read(admin, `/v1/spaces/${spaceId}/links?limit=1000`, `${S}/links`);
    expect((links.items as Json[]).filter((l) => l.status === 'broken')).toEqual([]);

    // stayed within the host and the path prefix, honoured robots.txt, fetched each page once
    expect(site.requests.filter((p) => p.startsWith('/outside') || p.startsWith('/docs/private'))).toEqual([]);
    const pageRequests = site.requests.filter((p) => !p.startsWith('/docs/assets/') && p !== '/robots.txt');
    expect(new Set(pageRequests).size).toBe(pageRequests.length);
    expect(site.requests).toContain('/robots.txt');

    // the import run: one attempt, its result the revision; the revision carries the run's key
    const mongo = await connectMongo(sut.env.MONGODB_URL, sut.env.CONTENT_DB, 'tests');
    try {
      const run = await mongo.db.collection('runs').findOne({ kind: 'content.website-import', 'input.spaceId': spaceId });
      expect(run).toMatchObject({
        status: 'completed',
        attempt: 1,
        progress: { done: 50, total: 50 },
        result: { revision: res.body.revision, importedResources: 56, totalResources: 57 },
      });
      expect(run!.result.pages).toHaveLength(50);
      expect(run!.completedAt.getTime()).toBeGreaterThanOrEqual(run!.startedAt.getTime());
      expect(await mongo.db.collection('revisions').countDocuments({ spaceId, mergeKey: `import:${run!._id}` })).toBe(1);
    } finally {
      await mongo.close();
    }
  });

  test('into a change request of a locked space: a new head with the site, the space itself unchanged', async () => {
    const spaceId = (await createSpace(admin, orgId, { title: 'Locked import', editMode: 'locked' })).id;
    const current = (await admin.get(`/v1/spaces/${spaceId}`)).body.revision;
    const cr = await admin.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Import the docs' });
    expect(cr.status).toBe(201);
    const path = `/v1/spaces/${spaceId}/change-requests/${cr.body.id}`;
    const res = await admin.post(`${path}/content/import`, { source: 'website', url: `${site.origin}/docs/s2` });
    expect(res.status).toBe(201);
    assertMatchesSpec(OLD, 'post', `${S}/change-requests/{changeRequestId}/content/import`, 201, res.body);
    // /docs/s2 is crawled within /docs/: the whole site
    expect(res.body).toEqual({ revision: expect.any(String), importedResources: 56, totalResources: 57 });
    expect((await admin.get(path)).body.revision).toBe(res.body.revision);
    const pages = flatPages((await admin.get(`${path}/content/pages`)).body.pages);
    expect(pages).toHaveLength(50);
    expect((await admin.get(`/v1/spaces/${spaceId}`)).body.revision).toBe(current);
    expect((await admin.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages).toEqual([]);
    // other sources are refused here too
    const docx = await admin.post(`${path}/content/import`, { source: 'docx', url: `${site.origin}/docs/` });
    expect(docx.status).toBe(400);
    assertErrorBody(400, docx.body);
  });

  test('progress is observable while the crawl runs: the run record counts pages before the answer arrives', async () => {
    const spaceId = (await createSpace(admin, orgId, { title: 'Watched' })).id;
    const mongo = await connectMongo(sut.env.MONGODB_URL, sut.env.CONTENT_DB, 'tests');
    site.pageDelayMs = 250;
    try {
      // /docs/s4/p0 crawls /docs/s4/…: 4 pages and their deep pages, each answering after 250 ms
      const answer = admin.post(`/v1/spaces/${spaceId}/content/import`, { source: 'website', url: `${site.origin}/docs/s4/p0` });
      let done = false;
      void answer.finally(() => (done = true));
      const seen: Array<{ status: string; pages: number }> = [];
      const ofSpace = { kind: 'content.website-import', 'input.spaceId': spaceId };
      while (!done) {
        const run = await mongo.db.collection('runs').findOne(ofSpace);
        if (run?.progress) seen.push({ status: run.status, pages: run.progress.done });
        await new Promise((r) => setTimeout(r, 50));
      }
      const res = await answer;
      expect(res.status).toBe(201);
      // 8 pages and the logo p0 shows
      expect(res.body.importedResources).toBe(9);
      const running = seen.filter((s) => s.status === 'in-progress');
      expect(running.length).toBeGreaterThan(0);
      expect(new Set(running.map((s) => s.pages)).size).toBeGreaterThan(1);
      expect(await mongo.db.collection('runs').findOne(ofSpace)).toMatchObject({ status: 'completed', progress: { done: 8 } });
    } finally {
      site.pageDelayMs = 0;
      await mongo.close();
    }
  });

  test('other sources answer 400 (only website is served); a bad URL, a locked space and a site that answers 404 are refused, nothing created', async () => {
    const spaceId = (await createSpace(admin, orgId, { title: 'Refusals' })).id;
    const revision = (await admin.get(`/v1/spaces/${spaceId}`)).body.revision;
    for (const source of ['docx', 'markdown', 'html', 'zip', 'confluence', 'github-wiki', 'notion', 'google-docs']) {
      const res = await admin.post(`/v1/spaces/${spaceId}/content/import`, { source, url: `${site.origin}/docs/` });
      expect(res.status).toBe(400);
      assertErrorBody(400, res.body);
      expect(res.body.error.message).toMatch(/body\.source must be one of "website"/);
    }
    const served = (await admin.get('/openapi.json')).body.paths['/v1/spaces/{spaceId}/content/import'].post.requestBody.content['application/json'].schema;
    expect(served.properties.source.enum).toEqual(['website']);
    const cases: Array<[unknown, number]> = [
      [{ source: 'website', url: 'not a url' }, 400],
      [{ source: 'website', url: 'ftp://127.0.0.1/docs/' }, 400],
      [{ source: 'website', url: `${site.origin}/missing/` }, 400],
      [{ source: 'website', url: `${site.origin}/docs/private/secret` }, 400],
      [{ source: 'website' }, 400],
      [{ source: 'website', url: `${site.origin}/docs/`, extra: 1 }, 400],
      [{ source: 'pdf', url: `${site.origin}/docs/` }, 400],
    ];
    for (const [body, status] of cases) {
      const res = await admin.post(`/v1/spaces/${spaceId}/content/import`, body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), status]);
      assertErrorBody(status, res.body);
    }
    const locked = (await createSpace(admin, orgId, { title: 'Locked', editMode: 'locked' })).id;
    const res = await admin.post(`/v1/spaces/${locked}/content/import`, { source: 'website', url: `${site.origin}/docs/s1/p1` });
    expect(res.status).toBe(412);
    assertErrorBody(412, res.body);
    expect((await admin.get(`/v1/spaces/${spaceId}`)).body.revision).toBe(revision);
    expect((await admin.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages).toEqual([]);
  });
});
