import { createKafka, EventEnvelope, RunningConsumer, topicOf } from '@bindery/platform/events';
import { ContentEvents } from '@bindery/content/client';
import { SitesEvents } from '@bindery/sites/client';
import { randomBytes } from 'node:crypto';
import { freshnessHandlers, startFreshness } from './freshness';
import { serveSampleReader, ServedReader } from './testing/serve';

/**
 * The reader's caches follow the events of sites and content: with a resolution TTL of a minute, a
 * merge, an unpublished site or a changed site shows on the next request after its event.
 */
const paragraph = (text: string) => ({
  object: 'document' as const,
  data: {},
  nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }],
});

function merge(r: ServedReader, revisionId: string, text: string): void {
  const space = structuredClone(r.fixture.spaces.find((s) => s.id === 'space-blog')!);
  space.revisionId = revisionId;
  space.documents['blog-hello'] = paragraph(text) as never;
  r.fixture.publishRevision(space);
}

const revisionCreated = (revisionId: string, isCurrent: boolean) =>
  ContentEvents.revisionCreated.create('content', 'space-blog', {
    organizationId: 'org-acme',
    spaceId: 'space-blog',
    revisionId,
    parentRevisionId: 'rev-space-blog',
    changedPages: ['blog-hello'],
    deletedPages: [],
    isCurrent,
    type: 'merge',
  });

const body = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, text: await res.text() };
};

describe('freshness by events (handlers)', () => {
  let r: ServedReader;
  beforeEach(async () => {
    r = await serveSampleReader({ cache: { resolveTtlMs: 60_000 } });
  });
  afterEach(() => r.close());

  test('a current revision shows on the next request; a revision that is not current drops nothing', async () => {
    const handlers = freshnessHandlers(r.cached);
    expect((await body(`${r.url}/acme-inc/acme/blog/`)).text).toContain('About hello world.');
    merge(r, 'rev-space-blog-2', 'Merged text.');
    await handlers[ContentEvents.revisionCreated.type](revisionCreated('rev-space-blog-2', false));
    expect((await body(`${r.url}/acme-inc/acme/blog/`)).text).toContain('About hello world.');
    await handlers[ContentEvents.revisionCreated.type](revisionCreated('rev-space-blog-2', true));
    expect((await body(`${r.url}/acme-inc/acme/blog/`)).text).toContain('Merged text.');
  });

  test('an unpublished site answers 404 on the next request, and a published one 200', async () => {
    const handlers = freshnessHandlers(r.cached);
    expect((await body(`${r.url}/acme-inc/acme/`)).status).toBe(200);
    const site = r.fixture.sites.find((s) => s.id === 'site-acme')!;
    site.published = false;
    expect((await body(`${r.url}/acme-inc/acme/`)).status).toBe(200);
    await handlers[SitesEvents.siteUnpublished.type](SitesEvents.siteUnpublished.create('sites', site.id, { organizationId: 'org-acme', siteId: site.id }));
    expect((await body(`${r.url}/acme-inc/acme/`)).status).toBe(404);
    site.published = true;
    await handlers[SitesEvents.sitePublished.type](SitesEvents.sitePublished.create('sites', site.id, { organizationId: 'org-acme', siteId: site.id }));
    expect((await body(`${r.url}/acme-inc/acme/`)).status).toBe(200);
  });

  test('a site update (a deactivated share key) shows on the next request', async () => {
    const handlers = freshnessHandlers(r.cached);
    const team = r.fixture.sites.find((s) => s.visibility === 'share-link')!;
    const key = Object.keys(team.shareKeys ?? {}).find((k) => team.shareKeys![k])!;
    const jar = { cookie: '' };
    const get = async (path: string) => {
      const res = await fetch(`${r.url}${path}`, { redirect: 'manual', headers: jar.cookie ? { cookie: jar.cookie } : {} });
      const set = res.headers.get('set-cookie');
      if (set) jar.cookie = set.split(';')[0];
      return res.status;
    };
    expect(await get(`/${team.organization}/${team.basename}/~share/${key}/`)).toBe(303);
    expect(await get(`/${team.organization}/${team.basename}/`)).toBe(200);
    team.shareKeys![key] = false;
    await handlers[SitesEvents.siteUpdated.type](
      SitesEvents.siteUpdated.create('sites', team.id, { organizationId: team.organizationId, siteId: team.id, changes: ['share-links'] }),
    );
    expect(await get(`/${team.organization}/${team.basename}/`)).toBe(404);
  });

  test("a customization change (the site's new version) shows on the next request", async () => {
    const handlers = freshnessHandlers(r.cached);
    expect((await body(`${r.url}/acme-inc/acme/`)).text).toContain('Published with Bindery');
    const site = r.fixture.sites.find((s) => s.id === 'site-acme')!;
    site.customization = { site: { trademark: { enabled: false } }, siteSpaces: {}, custom: true };
    site.version = '2';
    expect((await body(`${r.url}/acme-inc/acme/`)).text).toContain('Published with Bindery');
    await handlers[SitesEvents.siteCustomizationUpdated.type](SitesEvents.siteCustomizationUpdated.create('sites', site.id, { organizationId: 'org-acme', siteId: site.id }));
    expect((await body(`${r.url}/acme-inc/acme/`)).text).not.toContain('Published with Bindery');
  });
});

describe('freshness by events (through the broker)', () => {
  let r: ServedReader;
  let consumer: RunningConsumer | undefined;
  afterEach(async () => {
    await consumer?.stop();
    await r?.close();
  });

  test('a merge shows on the next request after its event reaches the replica, well within the 1 s TTL', async () => {
    const brokers = process.env.BINDERY_TEST_KAFKA_BROKERS;
    if (!brokers) throw new Error('the test infrastructure is not up (run jest with the infra preset)');
    const kafka = createKafka(brokers.split(','), 'reader-freshness-test');
    const namespace = `t${randomBytes(4).toString('hex')}.`;
    r = await serveSampleReader({ cache: { resolveTtlMs: 60_000 } });
    const seen: string[] = [];
    consumer = await startFreshness({ kafka, namespace, cache: r.cached, invalidated: (type) => seen.push(type) });
    await consumer.health.startedUp;
    while (!consumer.health.lastFetchAt) await new Promise((res) => setTimeout(res, 20));
    const producer = kafka.producer();
    await producer.connect();
    const send = (e: EventEnvelope) => producer.send({ topic: namespace + topicOf('content'), messages: [{ key: e.subject, value: JSON.stringify(e) }] });
    const delays: number[] = [];
    try {
      expect((await body(`${r.url}/acme-inc/acme/blog/`)).text).toContain('About hello world.');
      for (let round = 1; round <= 5; round++) {
        const text = `Merged text ${round}.`;
        merge(r, `rev-space-blog-m${round}`, text);
        const t0 = Date.now();
        await send(revisionCreated(`rev-space-blog-m${round}`, true));
        while (Date.now() - t0 < 5000 && !(await body(`${r.url}/acme-inc/acme/blog/`)).text.includes(text)) await new Promise((res) => setTimeout(res, 5));
        delays.push(Date.now() - t0);
        expect((await body(`${r.url}/acme-inc/acme/blog/`)).text).toContain(text);
      }
    } finally {
      await producer.disconnect();
      await consumer.stop();
      consumer = undefined;
      const admin = kafka.admin();
      await admin.connect();
      await admin.deleteTopics({ topics: [namespace + topicOf('content'), namespace + topicOf('sites')] }).catch(() => undefined);
      await admin.disconnect();
    }
    console.log(`freshness through Kafka: a merge showed after ${delays.join(', ')} ms (resolution TTL 60 s)`);
    expect(seen.filter((t) => t === ContentEvents.revisionCreated.type)).toHaveLength(5);
    expect(Math.max(...delays)).toBeLessThan(1000);
  }, 40000);
});
