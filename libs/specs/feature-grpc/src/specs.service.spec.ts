import { randomBytes } from 'node:crypto';
import * as nodeHttp from 'node:http';
import type { AddressInfo } from 'node:net';
import { IdentityEvents as I } from '@bindery/identity/client';
import { identityStandIn } from '@bindery/identity/projection';
import { connectSpecs } from '@bindery/specs/client';
import { eventually, FAST_RUN_SETTINGS, infraEnv, readEvents, ServiceUnderTest, startServiceUnderTest } from '@bindery/shared/testing';
import { processDocument } from './processing';
import { recordVersion } from './process-spec.run';
import type { SpecsDeps } from './specs-deps';
import { specsServiceWith } from './specs-server';

const hex = () => randomBytes(3).toString('hex');
const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
const who = (userId: string) => ({ caller: { userId, isInstanceAdmin: false } });

const doc30 = (title = 'Petstore') =>
  JSON.stringify({
    openapi: '3.0.3',
    info: { title, version: '1.0.0' },
    paths: { '/pets': { get: { responses: { '200': { description: 'The pets', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pets' } } } } } } } },
    components: { schemas: { Pets: { type: 'array', items: { type: 'string' } } } },
  });
const doc31Yaml = 'openapi: 3.1.0\ninfo:\n  title: Webhooks\n  version: "1"\nwebhooks:\n  ping:\n    post:\n      responses:\n        "200": {description: ok}\n';

/** A loopback host of OpenAPI documents: path → body (a function may hold the answer back). */
async function documentHost(routes: Record<string, string | ((res: nodeHttp.ServerResponse) => void)>) {
  const server = nodeHttp.createServer((req, res) => {
    const route = routes[req.url ?? ''];
    if (typeof route === 'function') return route(res);
    if (route === undefined) return void res.writeHead(404).end('no');
    res.writeHead(200, { 'content-type': 'application/json' }).end(route);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

/**
 * The service tier of specs: in process on the real MongoDB and Kafka, organization roles fed to its
 * projection as identity's events would, documents served by a loopback host (private addresses
 * allowed here; the e2e tests check the guard's refusals).
 */
describe('specs service (in process, real MongoDB and Kafka)', () => {
  const namespace = `s${hex()}.`;
  let service: ServiceUnderTest<SpecsDeps>;
  let clients: ReturnType<typeof connectSpecs>;
  let host: Awaited<ReturnType<typeof documentHost>>;

  beforeAll(async () => {
    host = await documentHost({
      '/petstore.json': doc30('Hosted'),
      '/hang': () => undefined,
      '/split/openapi.yaml': 'openapi: 3.1.0\ninfo: {title: Split, version: "1"}\npaths: {}\ncomponents:\n  schemas:\n    Pet: {$ref: "./pet.json"}\n',
      '/split/pet.json': '{"type": "object"}',
    });
    service = await startServiceUnderTest(specsServiceWith({ accessSource: identityStandIn }), {
      ...FAST_RUN_SETTINGS,
      KAFKA_NAMESPACE: namespace,
      BINDERY_OUTBOUND_ALLOW_PRIVATE: 'true',
      SPECS_FETCH_TIMEOUT_MS: '400',
    });
    clients = connectSpecs(service.address, 10000);
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
    await host?.close();
  });

  async function newOrg() {
    const org = `org-${hex()}`;
    const user = (role: string) => `${role}-${org}`;
    for (const role of [...ROLES, null]) {
      const userId = user(role ?? 'guest');
      await service.running.deps.access.handlers[I.memberAdded.type](I.memberAdded.create('tests', userId, { organizationId: org, userId, role: role ?? undefined }, org));
    }
    return { org, as: (role: string) => who(user(role)) };
  }

  /** The spec once its processing is complete. */
  const processed = (org: string, slug: string) =>
    eventually(async () => {
      const spec = await clients.specs.getSpec({ organizationId: org, slug }, who(`admin-${org}`));
      if (spec.processingState !== 'complete') throw new Error(`${slug} is ${spec.processingState}`);
      return spec;
    }, 20000);

  const put = (org: string, slug: string, source: { text?: string; url?: string }, as = who(`edit-${org}`)) => clients.specs.putSpec({ organizationId: org, slug, source }, as);

  test('a 3.0 and a 3.1 document each complete with one version; the same document again makes none; a changed one makes the next', async () => {
    const o = await newOrg();
    const created = await clients.specs.createSpec({ organizationId: o.org, slug: 'petstore', source: { text: doc30() } }, o.as('create'));
    expect(created).toMatchObject({
      slug: 'petstore',
      processingState: 'pending',
      visibility: 'private',
      lastProcessedErrorCount: 0,
      permissions: { view: true, edit: true, delete: true },
    });
    const first = await processed(o.org, 'petstore');
    expect(first.lastVersionId).toEqual(expect.any(String));
    expect(first.lastProcessErrorCode).toBeUndefined();
    await clients.specs.createSpec({ organizationId: o.org, slug: 'webhooks', source: { text: doc31Yaml } }, o.as('admin'));
    expect((await processed(o.org, 'webhooks')).lastVersionId).toEqual(expect.any(String));

    // the same document, reformatted, by PUT: processed again, no new version
    const again = await put(o.org, 'petstore', { text: JSON.stringify(JSON.parse(doc30()), null, 4) });
    expect(again.created).toBe(false);
    expect(again.spec!.processingState).toBe('pending');
    const same = await processed(o.org, 'petstore');
    expect(same.lastVersionId).toBe(first.lastVersionId);
    expect((await clients.specs.listVersions({ organizationId: o.org, slug: 'petstore', page: undefined }, o.as('read'))).page!.count).toBe(1);

    // a changed document: version 2, the latest
    await put(o.org, 'petstore', { text: doc30('Petstore v2') });
    const second = await processed(o.org, 'petstore');
    expect(second.lastVersionId).not.toBe(first.lastVersionId);
    const versions = await clients.specs.listVersions({ organizationId: o.org, slug: 'petstore', page: undefined }, o.as('read'));
    expect(versions.items.map((v) => [v.id, v.number])).toEqual([
      [second.lastVersionId, 2],
      [first.lastVersionId, 1],
    ]);
    const latest = await clients.specs.getVersionContent({ organizationId: o.org, slug: 'petstore', versionId: '' }, o.as('read'));
    expect(latest.filesystem['openapi.json']).toMatchObject({ isEntrypoint: true, filename: 'openapi.json', specification: { info: { title: 'Petstore v2' } } });
    const older = await clients.specs.getVersionRawContent({ organizationId: o.org, slug: 'petstore', versionId: first.lastVersionId! }, o.as('read'));
    expect(older).toEqual({ text: doc30(), format: 'json' });
  });

  test('a broken document completes with PARSE_ERROR and says where and what; a later valid one clears it', async () => {
    const o = await newOrg();
    const broken = JSON.stringify({ openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: { '/a': { get: { parameters: [{ name: 'q', in: 'body' }], responses: {} } } } });
    await put(o.org, 'broken', { text: broken }, o.as('create'));
    const failed = await processed(o.org, 'broken');
    expect(failed).toMatchObject({ lastProcessErrorCode: 'PARSE_ERROR', lastVersionId: undefined });
    expect(failed.lastProcessedErrorCount).toBeGreaterThanOrEqual(1);
    expect(failed.lastProcessedErrors[0].message).toMatch(/^paths\["\/a"\]\.get\.parameters\[0\]/);
    await expect(clients.specs.getVersion({ organizationId: o.org, slug: 'broken', versionId: '' }, o.as('read'))).rejects.toMatchObject({ kind: 'not_found' });
    await put(o.org, 'broken', { text: doc30() });
    const fixed = await processed(o.org, 'broken');
    expect(fixed).toMatchObject({ lastProcessErrorCode: undefined, lastProcessedErrors: [], lastProcessedErrorCount: 0, lastVersionId: expect.any(String) });
  });

  test('URL sources: fetched with their relative $refs; an unreachable URL is a FETCH_ERROR, one that never answers a FETCH_TIMEOUT', async () => {
    const o = await newOrg();
    await put(o.org, 'hosted', { url: `${host.origin}/petstore.json` }, o.as('create'));
    expect(await processed(o.org, 'hosted')).toMatchObject({ sourceUrl: `${host.origin}/petstore.json`, lastVersionId: expect.any(String) });
    await put(o.org, 'split', { url: `${host.origin}/split/openapi.yaml` }, o.as('create'));
    await processed(o.org, 'split');
    const split = await clients.specs.getVersionContent({ organizationId: o.org, slug: 'split', versionId: '' }, o.as('read'));
    expect(Object.values(split.filesystem).map((f) => [f.filename, f.isEntrypoint])).toEqual([
      ['openapi.json', true],
      ['./pet.json', false],
    ]);

    const closed = await documentHost({});
    await closed.close();
    await put(o.org, 'gone', { url: `${closed.origin}/openapi.json` }, o.as('create'));
    const gone = await processed(o.org, 'gone');
    expect(gone).toMatchObject({ lastProcessErrorCode: 'FETCH_ERROR', lastProcessedErrors: [{ message: 'The source URL could not be fetched (ECONNREFUSED).' }] });
    await put(o.org, 'missing', { url: `${host.origin}/nothing.json` }, o.as('create'));
    expect((await processed(o.org, 'missing')).lastProcessedErrors[0].message).toBe('The source URL answered HTTP 404.');
    await put(o.org, 'slow', { url: `${host.origin}/hang` }, o.as('create'));
    expect(await processed(o.org, 'slow')).toMatchObject({
      lastProcessErrorCode: 'FETCH_TIMEOUT',
      lastProcessedErrors: [{ message: 'The source URL did not answer within 0.4 s.' }],
    });
  });

  test('concurrent recordings of one document make one version; of different documents, one version each, numbered, the latest last', async () => {
    const o = await newOrg();
    await put(o.org, 'race', { text: doc30() }, o.as('create'));
    await processed(o.org, 'race');
    const deps = service.running.deps;
    const spec = (await deps.specs.bySlug(o.org, 'race'))!;
    const noFetch = async () => {
      throw new Error('no fetch');
    };
    const same = await processDocument({ kind: 'text', text: doc30('Same for all') }, noFetch, 5);
    const results = await Promise.all(Array.from({ length: 8 }, () => recordVersion(deps, spec, spec.sourceRevision, same)));
    const made = results.filter((r) => r.outcome === 'version' && r.newVersion);
    expect(made).toHaveLength(1);
    const versionIds = new Set(results.map((r) => (r.outcome === 'version' ? r.versionId : '')));
    expect(versionIds.size).toBe(1);
    expect(await deps.versions.count(spec._id)).toBe(2);

    const docs = await Promise.all(Array.from({ length: 6 }, (_, i) => processDocument({ kind: 'text', text: doc30(`Title ${i}`) }, noFetch, 5)));
    await Promise.all(docs.map((d) => recordVersion(deps, spec, spec.sourceRevision, d)));
    const versions = await deps.versions.page(spec._id, 100);
    expect(versions.map((v) => v.number)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    const after = (await deps.specs.bySlug(o.org, 'race'))!;
    expect(after).toMatchObject({ versionCount: 8, lastVersionId: versions[0]._id, lastVersionHash: versions[0].hash });
  });

  test('a run overtaken by a newer source records nothing; deleting a spec removes its versions and frees its slug', async () => {
    const o = await newOrg();
    await put(o.org, 'fast', { url: `${host.origin}/hang` }, o.as('create'));
    await put(o.org, 'fast', { text: doc30('Newest') });
    const done = await processed(o.org, 'fast');
    expect(done.lastProcessErrorCode).toBeUndefined();
    const content = await clients.specs.getVersionContent({ organizationId: o.org, slug: 'fast', versionId: '' }, o.as('read'));
    expect(content.filesystem['openapi.json'].specification!.info.title).toBe('Newest');
    // the hanging run ends (timeout) and finds its revision stale: the spec stays as it is
    await eventually(async () => {
      const runs = await service.running.deps.db.collection('runs').find({ 'input.specId': done.id, status: 'completed' }).toArray();
      expect(runs.map((r) => r.result?.outcome).sort()).toEqual(['stale', 'version']);
    }, 20000);
    expect(await clients.specs.getSpec({ organizationId: o.org, slug: 'fast' }, o.as('read'))).toMatchObject({
      lastProcessErrorCode: undefined,
      lastVersionId: done.lastVersionId,
    });

    await expect(clients.specs.deleteSpec({ organizationId: o.org, slug: 'fast' }, o.as('edit'))).rejects.toMatchObject({ kind: 'forbidden' });
    expect(await clients.specs.deleteSpec({ organizationId: o.org, slug: 'fast' }, o.as('create'))).toEqual({ deleted: true });
    expect(await clients.specs.deleteSpec({ organizationId: o.org, slug: 'fast' }, o.as('create'))).toEqual({ deleted: false });
    expect(await service.running.deps.versions.count(done.id)).toBe(0);
    const reborn = await clients.specs.createSpec({ organizationId: o.org, slug: 'fast', source: { text: doc30() } }, o.as('create'));
    expect(reborn.id).not.toBe(done.id);
  });

  test('slugs are unique per organization, also under concurrent PUTs; roles decide who may do what', async () => {
    const o = await newOrg();
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => put(o.org, 'contended', { text: doc30() }, o.as('create'))));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(results.map((r) => (r as PromiseFulfilledResult<{ created: boolean }>).value.created).filter(Boolean)).toHaveLength(1);
    expect((await clients.specs.listSpecs({ organizationId: o.org, page: undefined }, o.as('read'))).page!.count).toBe(1);
    await expect(clients.specs.createSpec({ organizationId: o.org, slug: 'contended', source: { text: doc30() } }, o.as('admin'))).rejects.toMatchObject({ kind: 'conflict' });
    // edit may give an existing spec a new source, not create one; read may only read; a guest sees nothing
    await expect(put(o.org, 'contended', { text: doc30('x') }, o.as('edit'))).resolves.toMatchObject({ created: false });
    await expect(put(o.org, 'new-one', { text: doc30() }, o.as('edit'))).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(put(o.org, 'contended', { text: doc30() }, o.as('read'))).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(clients.specs.getSpec({ organizationId: o.org, slug: 'contended' }, o.as('guest'))).rejects.toMatchObject({ kind: 'not_found' });
    await expect(clients.specs.updateSpec({ organizationId: o.org, slug: 'contended', visibility: 'public' }, o.as('edit'))).rejects.toMatchObject({ kind: 'forbidden' });
    expect(await clients.specs.updateSpec({ organizationId: o.org, slug: 'contended', visibility: 'public' }, o.as('create'))).toMatchObject({ visibility: 'public' });
  });

  test('translation settings: admins write, members read, languages canonical; every change is an event', async () => {
    const o = await newOrg();
    const created = await clients.translations.createTranslationSettings({ organizationId: o.org, title: ' Docs in French ', languages: ['fr', 'fr-ca', 'FR'] }, o.as('admin'));
    expect(created).toMatchObject({ title: 'Docs in French', languages: ['fr', 'fr-CA'], permissions: { view: true, edit: true } });
    await expect(clients.translations.createTranslationSettings({ organizationId: o.org, title: 'x', languages: ['en_US'] }, o.as('admin'))).rejects.toMatchObject({
      kind: 'invalid',
      message: expect.stringContaining('languages[0]'),
    });
    await expect(clients.translations.createTranslationSettings({ organizationId: o.org, title: 'x', languages: [] }, o.as('create'))).rejects.toMatchObject({ kind: 'forbidden' });
    expect(await clients.translations.getTranslationSettings({ organizationId: o.org, translationSettingsId: created.id }, o.as('read'))).toMatchObject({
      permissions: { view: true, edit: false },
    });
    const renamed = await clients.translations.updateTranslationSettings({ organizationId: o.org, translationSettingsId: created.id, title: 'French' }, o.as('admin'));
    expect(renamed).toMatchObject({ title: 'French', languages: ['fr', 'fr-CA'] });
    expect(await clients.translations.deleteTranslationSettings({ organizationId: o.org, translationSettingsId: created.id }, o.as('admin'))).toEqual({ deleted: true });
    const events = await readEvents(infraEnv().KAFKA_BROKERS.split(','), `${namespace}bindery.specs.v1`, (evs) =>
      evs.some((e) => e.type === 'specs.translation_settings.deleted' && e.subject === created.id),
    );
    expect(events.filter((e) => e.subject === created.id).map((e) => e.type)).toEqual([
      'specs.translation_settings.created',
      'specs.translation_settings.updated',
      'specs.translation_settings.deleted',
    ]);
    expect(events.some((e) => e.type === 'specs.spec_version.created' && e.organization)).toBe(true);
  });
});
