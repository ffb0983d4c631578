import { connectMongo } from '@bindery/platform/mongo';
import { assertErrorBody, assertMatchesSpec, startSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { flatPages, Json } from './content-model-fixtures';
import { createOrganization, createUser, TestUser } from './fixtures';
import { Client, http } from './http-client';
import { finished, readRun, RUNS, runUntil, startRun } from './import-run-fixtures';
import { startTestWebsite, TestWebsite } from './website-fixtures';

describe('website import runs (0.202.0 /org/{organizationId}/imports)', () => {
  let sut: SystemUnderTest;
  let site: TestWebsite;
  let owner: TestUser;
  let orgId: string;
  let admin: Client;

  // Longer than the tier: starts its own system (outbound guard open to the loopback test site).
  beforeAll(async () => {
    site = await startTestWebsite();
    sut = await startSystem({ BINDERY_OUTBOUND_ALLOW_PRIVATE: 'true' }, { services: ['identity', 'content', 'change-requests'] });
    owner = await createUser(sut, 'runs-owner');
    orgId = await createOrganization(sut, owner, 'Import runs');
    admin = http(sut.baseUrl, owner.token);
  }, 180_000);
  afterAll(async () => {
    await sut?.stop();
    await site?.close();
  });

  test('start answers a pending run at once; it completes with its pages and the space has the new revision', async () => {
    const spaceId = (await createSpace(admin, orgId, { title: 'Run target' })).id as string;
    const started = await startRun(admin, orgId, spaceId, `${site.origin}/docs/s4/p0`);
    expect(started).toMatchObject({
      object: 'import-run',
      source: { type: 'website', url: `${site.origin}/docs/s4/p0` },
      target: { space: spaceId },
      createdBy: owner.id,
      urls: { location: `${sut.baseUrl}/v1/org/${orgId}/imports/${started.id}` },
    });
    expect(['pending', 'in-progress']).toContain(started.status);
    const run = await runUntil(admin, orgId, started.id as string, finished);
    expect(run.status).toBe('completed');
    expect(run.completedAt).toEqual(expect.any(String));
    expect(run.progress).toEqual({ pages: 8, total: 8 });
    expect(run.pages).toHaveLength(8);
    const pages = flatPages((await admin.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages);
    expect(pages.map((p) => p.id).sort()).toEqual((run.pages as Json[]).map((p) => p.id).sort());
    for (const p of run.pages as Json[]) expect(p).toMatchObject({ type: 'page', status: 'complete', sourceURL: expect.stringContaining('/docs/s4/') });
  });

  test('a site that answers 404 fails the run with that reason and changes nothing; a file source or a page target is a 400: /openapi.json declares neither', async () => {
    const spaceId = (await createSpace(admin, orgId, { title: 'Missing site' })).id as string;
    const revision = (await admin.get(`/v1/spaces/${spaceId}`)).body.revision;
    const started = await startRun(admin, orgId, spaceId, `${site.origin}/missing/`);
    const run = await runUntil(admin, orgId, started.id as string, finished);
    expect(run).toMatchObject({ status: 'failed', reason: 'The url answered HTTP 404.' });
    expect((await admin.get(`/v1/spaces/${spaceId}`)).body.revision).toBe(revision);

    const refusals: Array<[unknown, RegExp]> = [
      [{ source: { type: 'file', files: ['a'] }, target: { space: spaceId } }, /body\.source\.type must be one of "website"/],
      [{ source: { type: 'website', url: `${site.origin}/docs/` }, target: { space: spaceId, page: 'p1' } }, /body\.target has an unknown field "page"/],
      [{ source: { type: 'website', url: `${site.origin}/docs/` }, target: { space: spaceId, changeRequest: 'c1' } }, /body\.target has an unknown field "changeRequest"/],
      [{ source: { type: 'website', url: 'ftp://x/' }, target: { space: spaceId } }, /http or https/],
      [{ source: { type: 'website', url: `${site.origin}/docs/` }, target: { space: spaceId }, extra: 1 }, /./],
      [{ source: { type: 'website', url: `${site.origin}/docs/` } }, /./],
    ];
    const served = (await admin.get('/openapi.json')).body.paths['/v1/org/{organizationId}/imports'].post.requestBody.content['application/json'].schema;
    expect(served.properties.source.properties.type.enum).toEqual(['website']);
    expect(Object.keys(served.properties.target.properties)).toEqual(['space']);
    for (const [body, message] of refusals) {
      const res = await admin.post(`/v1/org/${orgId}/imports`, body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
      assertErrorBody(400, res.body);
      expect(res.body.error.message).toMatch(message);
    }
    const doc = (await http(sut.baseUrl).get('/openapi.json')).body;
    expect(doc.paths['/v1/org/{organizationId}/imports'].post.description).toMatch(/"file".*fail validation \(400\)/);
  });

  test('cancel stops a running crawl at its next page; the space is left unchanged', async () => {
    const spaceId = (await createSpace(admin, orgId, { title: 'Cancelled' })).id as string;
    const revision = (await admin.get(`/v1/spaces/${spaceId}`)).body.revision;
    site.pageDelayMs = 300;
    try {
      const started = await startRun(admin, orgId, spaceId, `${site.origin}/docs/`);
      await runUntil(admin, orgId, started.id as string, (r) => r.status === 'in-progress' && ((r.progress as Json | undefined)?.pages as number) >= 2);
      const res = await admin.post(`/v1/org/${orgId}/imports/${started.id}/cancel`, {});
      expect(res.status).toBe(200);
      assertMatchesSpec('0.202.0', 'post', `${RUNS}/{importRunId}/cancel`, 200, res.body);
      const requestsAtCancel = site.requests.length;
      const run = await runUntil(admin, orgId, started.id as string, finished);
      expect(run.status).toBe('cancelled');
      expect((run.progress as Json).pages).toBeLessThan(50);
      // at most the page in flight was fetched after the cancel
      expect(site.requests.length - requestsAtCancel).toBeLessThanOrEqual(1);
      expect((await admin.get(`/v1/spaces/${spaceId}`)).body.revision).toBe(revision);
      expect((await admin.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages).toEqual([]);
      // cancelling a finished run answers it as it is
      const again = await admin.post(`/v1/org/${orgId}/imports/${started.id}/cancel`, {});
      expect([again.status, again.body.status]).toEqual([200, 'cancelled']);
    } finally {
      site.pageDelayMs = 0;
    }
  });

  test('list: newest first, filters by space and status (active too), keyset pages', async () => {
    const spaceId = (await createSpace(admin, orgId, { title: 'Listed' })).id as string;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const run = await startRun(admin, orgId, spaceId, `${site.origin}/docs/s3/p1/deep`);
      await runUntil(admin, orgId, run.id as string, finished);
      ids.push(run.id as string);
    }
    const list = async (query: string) => {
      const res = await admin.get(`/v1/org/${orgId}/imports?${query}`);
      expect(res.status).toBe(200);
      assertMatchesSpec('0.202.0', 'get', RUNS, 200, res.body);
      return res.body;
    };
    const all = await list(`space=${spaceId}`);
    expect(all.items.map((r: Json) => r.id)).toEqual([...ids].reverse());
    expect(all.count).toBe(3);
    const first = await list(`space=${spaceId}&limit=2`);
    expect(first.items).toHaveLength(2);
    const second = await list(`space=${spaceId}&limit=2&page=${encodeURIComponent(first.next.page)}`);
    expect([...first.items, ...second.items].map((r: Json) => r.id)).toEqual([...ids].reverse());
    expect(second.next).toBeUndefined();
    expect((await list(`space=${spaceId}&status=completed`)).count).toBe(3);
    expect((await list(`space=${spaceId}&status=active`)).count).toBe(0);
    expect((await list(`space=${spaceId}&status=failed`)).items).toEqual([]);
    const everything = await list('limit=100');
    expect(everything.count).toBeGreaterThanOrEqual(3);
    const bad = await admin.get(`/v1/org/${orgId}/imports?status=done`);
    expect(bad.status).toBe(400);
    assertErrorBody(400, bad.body);
  });

  test('two content replicas: each run is claimed and executed once, one revision per run', async () => {
    await sut.addReplica('content');
    const spaceIds: string[] = [];
    for (let i = 0; i < 4; i++) spaceIds.push((await createSpace(admin, orgId, { title: `Replicas ${i}` })).id as string);
    site.pageDelayMs = 50;
    const requestsBefore = site.requests.length;
    try {
      const started = await Promise.all(spaceIds.map((s) => startRun(admin, orgId, s, `${site.origin}/docs/s4/p0`)));
      for (const run of started) expect((await runUntil(admin, orgId, run.id as string, finished)).status).toBe('completed');
      const mongo = await connectMongo(sut.env.MONGODB_URL, sut.env.CONTENT_DB, 'tests');
      try {
        for (const [i, run] of started.entries()) {
          const record = await mongo.db.collection('runs').findOne({ _id: run.id as never });
          expect(record).toMatchObject({ status: 'completed', attempt: 1 });
          expect(await mongo.db.collection('revisions').countDocuments({ spaceId: spaceIds[i], mergeKey: `import:${run.id}` })).toBe(1);
        }
        const owners = await mongo.db.collection('runs').distinct('leaseOwner', { _id: { $in: started.map((r) => r.id) } as never });
        expect(owners).toEqual([]);
      } finally {
        await mongo.close();
      }
      // each page of each crawl was requested once in all (no second replica crawled a run again)
      const crawled = site.requests.slice(requestsBefore).filter((p) => p.startsWith('/docs/s4/') && !p.startsWith('/docs/assets/'));
      expect(crawled.length).toBe(4 * 8);
    } finally {
      site.pageDelayMs = 0;
    }
  });

  test('a run of a space the caller cannot see is not found, as is an unknown run', async () => {
    const spaceId = (await createSpace(admin, orgId, { title: 'Private' })).id as string;
    const run = await startRun(admin, orgId, spaceId, `${site.origin}/docs/s3/p1/deep`);
    await runUntil(admin, orgId, run.id as string, finished);
    expect((await readRun(admin, orgId, run.id as string)).id).toBe(run.id);
    const other = await createUser(sut, 'runs-other');
    const res = await http(sut.baseUrl, other.token).get(`/v1/org/${orgId}/imports/${run.id}`);
    expect(res.status).toBe(404);
    const unknown = await admin.get(`/v1/org/${orgId}/imports/unknownRunId000000000`);
    expect(unknown.status).toBe(404);
    assertErrorBody(404, unknown.body);
  });
});
