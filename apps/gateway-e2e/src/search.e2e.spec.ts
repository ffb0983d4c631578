import { connectMongo } from '@bindery/platform/mongo';
import { assertErrorBody, assertMatchesSpec, eventually, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace, setDefaultLevel } from './content-fixtures';
import { ContentWriter, contentWriter } from './content-writer';
import { pageIdsOf } from './content-model-fixtures';
import { createOrganization, createUser, TestUser } from './fixtures';
import { Client, http } from './http-client';
import { Json, search, titlesOf, untilFirst } from './search-fixtures';

const OLD = '0.130.0';

describe('search through HTTP (spaces and organizations)', () => {
  let sut: SystemUnderTest;
  let owner: TestUser;
  let reader: TestUser;
  let orgId: string;
  let admin: Client;
  let readerClient: Client;
  let writer: ContentWriter;
  let spaceId: string;
  let pages: Record<string, string>;

  beforeAll(async () => {
    sut = await sharedSystem();
    owner = await createUser(sut, 'search-owner');
    reader = await createUser(sut, 'search-reader');
    orgId = await createOrganization(sut, owner, 'Search');
    admin = http(sut.baseUrl, owner.token);
    const invited = await admin.post(`/v1/orgs/${orgId}/invites`, { emails: [{ email: reader.email, role: 'read' }] });
    expect(invited.status).toBe(200);
    readerClient = http(sut.baseUrl, reader.token);
    writer = contentWriter(sut);
    spaceId = (await createSpace(admin, orgId, { title: 'Handbook' })).id;
    const write = await writer.apply(owner.id, spaceId, [
      { operation: 'insert_page', title: 'Webhooks', document: { markdown: 'Receive events at an endpoint you own.\n\n## Retries\n\nFailed deliveries are retried five times.' } },
      { operation: 'insert_page', title: 'Overview', document: { markdown: 'The platform sends webhooks, keeps history and has an API.' } },
      { operation: 'insert_page', title: 'Limits', document: { markdown: 'Every token has a rate limit of 100 requests per minute.' } },
      { operation: 'insert_page', title: 'Throttling', document: { markdown: 'We limit the rate at which exports run.' } },
      { operation: 'insert_page', title: 'Authentication', document: { markdown: 'Send a bearer token in the Authorization header.' } },
      { operation: 'insert_page', title: 'Café menu', document: { markdown: 'Crème brûlée and espresso are served at the Café.' } },
      {
        operation: 'insert_page',
        title: 'Setup',
        document: { markdown: 'Configuration lives in one file.\n\n## Environment\n\nConfiguring the environment variables comes first.' },
      },
    ]);
    const [webhooks, overview, limits, throttling, authentication, cafe, setup] = pageIdsOf(write);
    pages = { webhooks, overview, limits, throttling, authentication, cafe, setup };
    await untilFirst(admin, spaceId, 'configuring', 'Setup');
  });
  afterAll(() => writer?.close());

  const spaceSearch = (client: Client, q: string, extra = '') => search(client, `/v1/spaces/${spaceId}/search`, q, extra);

  it('answers pages with their sections, highlighted excerpts and app URLs, in the official shape', async () => {
    const body = await spaceSearch(admin, 'retried');
    assertMatchesSpec(OLD, 'get', '/spaces/{spaceId}/search', 200, body);
    expect(body.count).toBe(1);
    const [page] = body.items;
    expect(page).toMatchObject({ id: pages.webhooks, title: 'Webhooks', path: 'webhooks' });
    expect(page.urls.app).toMatch(new RegExp(`/s/${spaceId}/webhooks$`));
    expect(page.sections[0]).toMatchObject({ title: 'Retries', path: 'webhooks#retries', body: 'Failed deliveries are <mark>retried</mark> five times.' });
    expect(page.sections[0].urls.app).toMatch(/webhooks#retries$/);
  });

  it('ranks a title match above a body match', async () => {
    expect(titlesOf(await spaceSearch(admin, 'webhooks'))).toEqual(['Webhooks', 'Overview']);
  });

  it('matches phrases in quotes only as written, words in any order without quotes', async () => {
    expect(titlesOf(await spaceSearch(admin, '"rate limit"'))).toEqual(['Limits']);
    expect(titlesOf(await spaceSearch(admin, 'rate limit')).sort()).toEqual(['Limits', 'Throttling']);
  });

  it('matches the last word as a prefix', async () => {
    expect(titlesOf(await spaceSearch(admin, 'authenti'))).toEqual(['Authentication']);
    expect(titlesOf(await spaceSearch(admin, 'bearer tok'))[0]).toBe('Authentication');
    expect(titlesOf(await spaceSearch(admin, 'authenti '))).toEqual([]);
  });

  it('folds case and diacritics, and stems', async () => {
    expect(titlesOf(await spaceSearch(admin, 'CREME BRULEE'))).toEqual(['Café menu']);
    expect(titlesOf(await spaceSearch(admin, 'café'))).toEqual(['Café menu']);
    expect(titlesOf(await spaceSearch(admin, 'configured'))).toEqual(['Setup']);
    const setup = (await spaceSearch(admin, 'configure')).items[0];
    expect(setup.sections.map((s: Json) => s.body)).toEqual(['<mark>Configuration</mark> lives in one file.', '<mark>Configuring</mark> the environment variables comes first.']);
  });

  it('pages through results with a cursor', async () => {
    const first = await spaceSearch(admin, 'the', '&limit=1');
    expect(first.items).toHaveLength(1);
    expect(first.count).toBeGreaterThan(1);
    const second = await spaceSearch(admin, 'the', `&limit=1&page=${encodeURIComponent(first.next.page)}`);
    expect(second.items[0].id).not.toBe(first.items[0].id);
  });

  it('re-indexes a changed page: old words leave, new words come', async () => {
    await writer.apply(owner.id, spaceId, [{ operation: 'update_page', page: pages.throttling, document: { markdown: 'Exports wait in a queue.' } }]);
    await untilFirst(admin, spaceId, 'queue', 'Throttling');
    expect(titlesOf(await spaceSearch(admin, 'rate limit'))).toEqual(['Limits']);
  });

  it('searches an organization: spaces with their pages, only those the caller can read, counted as seen', async () => {
    const secret = (await createSpace(admin, orgId, { title: 'Secret' })).id;
    await setDefaultLevel(admin, 'space', secret, null);
    await writer.apply(owner.id, secret, [{ operation: 'insert_page', title: 'Webhook secrets', document: { markdown: 'Sign webhooks with the shared secret.' } }]);
    await untilFirst(admin, secret, 'webhooks', 'Webhook secrets');
    const asAdmin = await search(admin, `/v1/orgs/${orgId}/search`, 'webhooks');
    assertMatchesSpec(OLD, 'get', '/orgs/{organizationId}/search', 200, asAdmin);
    expect(asAdmin.count).toBe(2);
    expect(asAdmin.items.map((s: Json) => s.title).sort()).toEqual(['Handbook', 'Secret']);
    const asReader = await search(readerClient, `/v1/orgs/${orgId}/search`, 'webhooks');
    assertMatchesSpec(OLD, 'get', '/orgs/{organizationId}/search', 200, asReader);
    expect(asReader).toMatchObject({ count: 1, items: [{ id: spaceId, title: 'Handbook' }] });
    expect(asReader.items[0].pages.map((p: Json) => p.title)).toEqual(['Webhooks', 'Overview']);
    const hidden = await readerClient.get(`/v1/spaces/${secret}/search?query=webhooks`);
    expect(hidden.status).toBe(404);
    assertErrorBody(404, hidden.body);
  });

  it('drops a deleted space from the results at once, and brings it back when restored', async () => {
    const doomed = (await createSpace(admin, orgId, { title: 'Doomed' })).id;
    await writer.apply(owner.id, doomed, [{ operation: 'insert_page', title: 'Zeppelins', document: { markdown: 'Airships of the past.' } }]);
    await untilFirst(admin, doomed, 'zeppelin', 'Zeppelins');
    expect((await search(admin, `/v1/orgs/${orgId}/search`, 'zeppelins')).count).toBe(1);
    expect((await admin.delete(`/v1/spaces/${doomed}`)).status).toBe(205);
    expect(await search(admin, `/v1/orgs/${orgId}/search`, 'zeppelins')).toEqual({ items: [], count: 0 });
    expect((await admin.get(`/v1/spaces/${doomed}/search?query=zeppelins`)).status).toBe(404);
    expect((await admin.post(`/v1/spaces/${doomed}/restore`)).status).toBe(200);
    // The index follows content's events: the restored space is searchable again once they are applied.
    await eventually(async () => expect((await search(admin, `/v1/orgs/${orgId}/search`, 'zeppelins')).count).toBe(1));
  });

  it('refuses a query over 512 characters, and a missing one, with 400', async () => {
    for (const path of [`/v1/spaces/${spaceId}/search`, `/v1/orgs/${orgId}/search`]) {
      const long = await admin.get(`${path}?query=${'a'.repeat(513)}`);
      expect(long.status).toBe(400);
      assertErrorBody(400, long.body);
      expect((await admin.get(`${path}?query=${'a'.repeat(512)}`)).status).toBe(200);
      const missing = await admin.get(path);
      expect(missing.status).toBe(400);
      assertErrorBody(400, missing.body);
    }
  });

  it("rebuilds the index from content on an instance admin's request, and refuses anyone else", async () => {
    const refused = await admin.post('/admin/search/rebuild', { spaces: [spaceId] });
    expect(refused.status).toBe(403);
    assertErrorBody(403, refused.body);
    const instanceAdmin = http(sut.baseUrl, sut.adminToken);
    const accepted = await instanceAdmin.post('/admin/search/rebuild', { spaces: [spaceId] });
    expect(accepted).toMatchObject({ status: 202, body: { object: 'run', kind: 'search.rebuild', status: 'pending', input: { spaceIds: [spaceId] }, attempt: 0 } });
    const done = await untilRunFinished(instanceAdmin, accepted.body.id);
    expect(done).toMatchObject({ status: 'completed', result: { spaces: 1, pages: 7 }, attempt: 1 });
    expect(Date.parse(done.completedAt)).toBeGreaterThanOrEqual(Date.parse(done.startedAt));
    expect(titlesOf(await spaceSearch(admin, 'webhooks'))).toEqual(['Webhooks', 'Overview']);
    // Only instance admins read rebuild runs; an unknown run is not found.
    expect((await admin.get(`/admin/search/rebuilds/${accepted.body.id}`)).status).toBe(403);
    // Cancelling a finished run answers it as it is.
    expect(await instanceAdmin.post(`/admin/search/rebuilds/${accepted.body.id}/cancel`, undefined)).toMatchObject({ status: 200, body: { status: 'completed' } });
    const unknown = await instanceAdmin.get('/admin/search/rebuilds/no-such-run');
    expect(unknown.status).toBe(404);
    assertErrorBody(404, unknown.body);
  });

  // Longer than the tier: a rebuild of every live space of the shared system.
  it('rebuilds from scratch: with the index emptied, a rebuild of everything reads every live space from content and drops the rest', async () => {
    const mongo = await connectMongo(sut.env.MONGODB_URL, sut.env.SEARCH_DB, 'tests');
    try {
      for (const c of ['sections', 'postings', 'vocabulary', 'spaces']) await mongo.db.collection(c).deleteMany({});
      // What the index could still hold of a space content no longer has.
      await mongo.db.collection<{ _id: string; organizationId: string; sections: number }>('spaces').insertOne({ _id: 'ghost-space', organizationId: orgId, sections: 0 });
      expect((await spaceSearch(admin, 'webhooks')).items).toEqual([]);
      const instanceAdmin = http(sut.baseUrl, sut.adminToken);
      const accepted = await instanceAdmin.post('/admin/search/rebuild', {});
      expect(accepted.status).toBe(202);
      const done = await untilRunFinished(instanceAdmin, accepted.body.id, 120000);
      expect(done.status).toBe('completed');
      expect(done.result.spaces).toBeGreaterThanOrEqual(1);
      expect(titlesOf(await spaceSearch(admin, 'webhooks'))).toEqual(['Webhooks', 'Overview']);
      expect(await mongo.db.collection<{ _id: string }>('spaces').countDocuments({ _id: 'ghost-space' })).toBe(0);
    } finally {
      await mongo.close();
    }
  }, 180000);

  // Longer than the tier: writes a first-format index and waits for the scheduled check to rebuild it.
  it('rebuilds an index of the first format by itself (sections without postings, the old multikey index)', async () => {
    const mongo = await connectMongo(sut.env.MONGODB_URL, sut.env.SEARCH_DB, 'tests');
    try {
      const meta = mongo.db.collection<{ _id: string; version?: number }>('meta');
      // The format record and the rebuild are written by search's own job (checked every 500 ms in test systems).
      await eventually(async () => expect(await meta.findOne({ _id: 'format' })).toMatchObject({ version: 2 }));
      // The first format: sections only. The marker goes last, so the check cannot see a half-made state as current.
      await mongo.db.collection('postings').deleteMany({});
      await mongo.db.collection('vocabulary').deleteMany({});
      await mongo.db.collection('sections').createIndex({ terms: 1, spaceId: 1 }, { name: 'postings' });
      await meta.deleteMany({});
      await eventually(async () => expect(titlesOf(await spaceSearch(admin, 'webhooks'))).toEqual(['Webhooks', 'Overview']), 120000);
      // The record is written once the rebuild went through every space of this shared system (the
      // one searched above comes early), which takes a while when many files ran before this one.
      await eventually(async () => expect(await meta.findOne({ _id: 'format' })).toEqual({ _id: 'format', version: 2 }), 120000);
      expect((await mongo.db.collection('sections').indexes()).map((i) => i.name)).not.toContain('postings');
    } finally {
      await mongo.close();
    }
  }, 300000);
});

/** Polls a rebuild run until it is completed, failed or cancelled, and answers it. */
async function untilRunFinished(client: Client, runId: string, timeoutMs = 30000): Promise<Json> {
  return eventually(async () => {
    const r = await client.get(`/admin/search/rebuilds/${runId}`);
    expect(r.status).toBe(200);
    expect(['completed', 'failed', 'cancelled']).toContain(r.body.status);
    return r.body;
  }, timeoutMs);
}
