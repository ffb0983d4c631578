import { GitBookAPI } from '@gitbook/api';
import { GitBookAPI as LatestGitBookAPI } from 'gitbook-api-latest';
import { assertErrorBody, readEvents, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createOrganization, createUser, TestUser } from './fixtures';
import { Client, http, walk } from './http-client';
import { assertOfficialAnswer, openapi30, openapi31Yaml, processedSpec, SPEC_PATHS as P } from './spec-fixtures';

describe('OpenAPI specs through the gateway', () => {
  let sut: SystemUnderTest;
  let ada: TestUser;
  let api: Client;
  let official: GitBookAPI;

  beforeAll(async () => {
    sut = await sharedSystem();
    ada = await createUser(sut, 'spec-owner');
    api = http(sut.baseUrl, ada.token);
    official = new GitBookAPI({ endpoint: sut.baseUrl, authToken: ada.token });
  });

  it('creates, processes, reads, updates and deletes a spec with the official client, every answer in the official shapes', async () => {
    const orgId = await createOrganization(sut, ada, 'Specs with the client');
    const created = await official.orgs.createOpenApiSpec(orgId, { slug: 'petstore', source: { text: openapi30() } });
    expect(created.status).toBe(201);
    assertOfficialAnswer('post', P.list, 201, created.data);
    expect(created.data).toMatchObject({
      object: 'openapi-spec',
      slug: 'petstore',
      processingState: 'pending',
      visibility: 'private',
      permissions: { view: true, edit: true, delete: true },
    });
    expect(created.data.urls.location).toBe(`${sut.baseUrl}/v1/orgs/${orgId}/openapi/petstore`);

    const done = await processedSpec(api, orgId, 'petstore');
    assertOfficialAnswer('get', P.one, 200, done);
    expect(done).toMatchObject({ processingState: 'complete', lastVersion: expect.any(String), lastProcessedAt: expect.any(String), lastProcessedErrorCount: 0 });
    expect(done.lastProcessErrorCode).toBeUndefined();
    const got = await official.orgs.getOpenApiSpecBySlug(orgId, 'petstore');
    expect(got.data).toEqual(done);

    const list = await official.orgs.listOpenApiSpecs(orgId);
    assertOfficialAnswer('get', P.list, 200, list.data);
    expect(list.data).toEqual({ items: [done], count: 1 });

    const versions = await official.orgs.listOpenApiSpecVersions(orgId, 'petstore');
    assertOfficialAnswer('get', P.versions, 200, versions.data);
    expect(versions.data.count).toBe(1);
    const latest = await official.orgs.getLatestOpenApiSpecVersion(orgId, 'petstore');
    assertOfficialAnswer('get', P.latest, 200, latest.data);
    expect(latest.data).toEqual(versions.data.items[0]);
    expect(latest.data).toMatchObject({ object: 'openapi-spec-version', id: done.lastVersion });
    const byId = await official.orgs.getOpenApiSpecVersionById(orgId, 'petstore', latest.data.id);
    assertOfficialAnswer('get', P.version, 200, byId.data);
    expect(byId.data).toEqual(latest.data);

    const content = await official.orgs.getLatestOpenApiSpecVersionContent(orgId, 'petstore');
    assertOfficialAnswer('get', P.latestContent, 200, content.data);
    expect(content.data.filesystem).toEqual({ 'openapi.json': { dir: '.', isEntrypoint: true, references: [], filename: 'openapi.json', specification: JSON.parse(openapi30()) } });
    expect(content.data).toMatchObject({ url: latest.data.url, urls: { source: latest.data.url, public: null } });
    const contentById = await official.orgs.getOpenApiSpecVersionContentById(orgId, 'petstore', latest.data.id);
    assertOfficialAnswer('get', P.versionContent, 200, contentById.data);
    expect(contentById.data).toEqual(content.data);
    const raw = await new LatestGitBookAPI({ endpoint: sut.baseUrl, authToken: ada.token }).orgs.getLatestOpenApiSpecVersionContentRaw(orgId, 'petstore');
    assertOfficialAnswer('get', P.latestRaw, 200, raw.data);
    expect(raw.data).toEqual({ text: openapi30(), format: 'json' });

    const published = await official.orgs.updateOpenApiSpecBySlug(orgId, 'petstore', { visibility: 'public' as never });
    assertOfficialAnswer('patch', P.one, 200, published.data);
    expect(published.data.visibility).toBe('public');

    // PUT: a new source for an existing spec (200), a new slug (201)
    const updated = await official.orgs.createOrUpdateOpenApiSpecBySlug(orgId, 'petstore', { source: { text: openapi30('Petstore 2') } });
    expect(updated.status).toBe(200);
    assertOfficialAnswer('put', P.one, 200, updated.data);
    expect(updated.data).toMatchObject({ id: done.id, processingState: 'pending' });
    const fresh = await official.orgs.createOrUpdateOpenApiSpecBySlug(orgId, 'trains', { source: { text: openapi31Yaml } });
    expect(fresh.status).toBe(201);
    assertOfficialAnswer('put', P.one, 201, fresh.data);
    expect((await processedSpec(api, orgId, 'petstore')).lastVersion).not.toBe(done.lastVersion);
    expect((await walk(api, `/v1/orgs/${orgId}/openapi/petstore/versions`, 1)).map((v) => v.id)).toHaveLength(2);

    const deleted = await official.orgs.deleteOpenApiSpecBySlug(orgId, 'petstore');
    expect(deleted.status).toBe(205);
    const again = await api.delete(`/v1/orgs/${orgId}/openapi/petstore`);
    expect(again.status).toBe(204);
    expect(again.body).toBeUndefined();
    await expect(official.orgs.getOpenApiSpecBySlug(orgId, 'petstore')).rejects.toMatchObject({ code: 404 });
    expect((await api.get(`/v1/orgs/${orgId}/openapi/petstore/versions`)).status).toBe(404);
  });

  it('processing: 3.0 and 3.1 complete with one version each; the same document again adds none; a broken one and an unreachable URL fail saying why', async () => {
    const orgId = await createOrganization(sut, ada, 'Processing');
    const put = (slug: string, source: object) => api.put(`/v1/orgs/${orgId}/openapi/${slug}`, { source });
    expect((await put('v30', { text: openapi30() })).status).toBe(201);
    expect((await put('v31', { text: openapi31Yaml })).status).toBe(201);
    const v30 = await processedSpec(api, orgId, 'v30');
    const v31 = await processedSpec(api, orgId, 'v31');
    for (const [slug, spec] of [
      ['v30', v30],
      ['v31', v31],
    ] as const) {
      expect(spec).toMatchObject({ lastVersion: expect.any(String), lastProcessedErrorCount: 0 });
      expect((await api.get(`/v1/orgs/${orgId}/openapi/${slug}/versions`)).body.count).toBe(1);
    }
    const yamlRaw = await api.get(`/v1/orgs/${orgId}/openapi/v31/versions/latest/content/raw`);
    expect(yamlRaw.body).toEqual({ text: openapi31Yaml, format: 'yaml' });

    // the same document again, written differently (indented): processed, no new version
    expect((await put('v30', { text: JSON.stringify(JSON.parse(openapi30()), null, 2) })).status).toBe(200);
    const same = await processedSpec(api, orgId, 'v30');
    expect(same.lastVersion).toBe(v30.lastVersion);
    expect(same.lastProcessedAt).not.toBe(v30.lastProcessedAt);
    expect((await api.get(`/v1/orgs/${orgId}/openapi/v30/versions`)).body.count).toBe(1);

    // a broken document: complete, PARSE_ERROR, what and where; the last good version stays the latest
    const broken = JSON.parse(openapi30());
    broken.paths['/pets'].get.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/Pet5' };
    expect((await put('v30', { text: JSON.stringify(broken) })).status).toBe(200);
    const failed = await processedSpec(api, orgId, 'v30');
    assertOfficialAnswer('get', P.one, 200, failed);
    expect(failed).toMatchObject({
      lastProcessErrorCode: 'PARSE_ERROR',
      lastVersion: v30.lastVersion,
      lastProcessedErrorCount: 1,
      lastProcessedErrors: [
        {
          code: 'INVALID_REFERENCE',
          message: 'paths["/pets"].get.responses["200"].content["application/json"].schema: the $ref "#/components/schemas/Pet5" points to nothing in the document.',
        },
      ],
    });
    const yamlError = await put('yaml-error', { text: 'openapi: 3.1.0\ninfo:\n  title: x\n   version: 1\n' });
    expect(yamlError.status).toBe(201);
    expect((await processedSpec(api, orgId, 'yaml-error')).lastProcessedErrors).toEqual([
      { code: 'YAML_SYNTAX', message: 'The document is not valid YAML (line 3, column 10): Nested mappings are not allowed in compact mappings.' },
      { code: 'YAML_SYNTAX', message: 'The document is not valid YAML (line 3, column 10): Implicit keys need to be on a single line.' },
    ]);

    // a URL that does not resolve (the .invalid domain never does): FETCH_ERROR naming the host's failure
    expect((await put('unreachable', { url: 'https://openapi.does-not-exist.invalid/openapi.json' })).status).toBe(201);
    const unreachable = await processedSpec(api, orgId, 'unreachable');
    assertOfficialAnswer('get', P.one, 200, unreachable);
    expect(unreachable).toMatchObject({
      sourceURL: 'https://openapi.does-not-exist.invalid/openapi.json',
      lastProcessErrorCode: 'FETCH_ERROR',
      lastProcessedErrors: [{ message: expect.stringMatching(/^The source URL could not be fetched/) }],
    });
    expect((await api.get(`/v1/orgs/${orgId}/openapi/unreachable/versions/latest`)).status).toBe(404);
  });

  it('refuses bad input with a 400 naming the field, a taken slug with a 409, and changes nothing', async () => {
    const orgId = await createOrganization(sut, ada, 'Refusals');
    const cases: Array<[unknown, string]> = [
      [{ slug: 'Bad_Slug', source: { text: openapi30() } }, 'body.slug'],
      [{ slug: 'a'.repeat(101), source: { text: openapi30() } }, 'body.slug'],
      [{ slug: 'ok', source: {} }, 'body.source'],
      [{ slug: 'ok', source: { text: openapi30(), url: 'https://example.com/a.json' } }, 'body.source'],
      [{ slug: 'ok', source: { url: 'ftp://example.com/a.json' } }, 'body.source'],
      [{ slug: 'ok', source: { text: '' } }, 'body.source'],
      [{ slug: 'ok' }, 'body.source is required'],
      [{ slug: 'ok', source: { text: openapi30() }, visibility: 'public' }, 'unknown field "visibility"'],
      [{ slug: 'ok', source: { text: '   ' } }, 'source.text is empty'],
    ];
    for (const [body, message] of cases) {
      const res = await api.post(`/v1/orgs/${orgId}/openapi`, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      assertErrorBody(400, res.body);
      expect(res.body.error.message).toContain(message);
    }
    expect((await api.patch(`/v1/orgs/${orgId}/openapi/nothing`, { visibility: 'hidden' })).status).toBe(400);
    expect((await api.get(`/v1/orgs/${orgId}/openapi`)).body.count).toBe(0);
    expect((await api.post(`/v1/orgs/${orgId}/openapi`, { slug: 'taken', source: { text: openapi30() } })).status).toBe(201);
    const taken = await api.post(`/v1/orgs/${orgId}/openapi`, { slug: 'taken', source: { text: openapi30() } });
    expect(taken.status).toBe(409);
    assertErrorBody(409, taken.body);
    expect(taken.body.error.message).toBe('An OpenAPI spec with the slug "taken" already exists in this organization.');
    expect((await api.get(`/v1/orgs/${orgId}/openapi/nothing`)).status).toBe(404);
    expect((await api.get(`/v1/orgs/${orgId}/openapi/taken/versions/nope`)).status).toBe(404);
  });

  it('publishes specs.spec.created, specs.spec_version.created (for the reader) and specs.spec.deleted', async () => {
    const orgId = await createOrganization(sut, ada, 'Events');
    const spec = (await api.put(`/v1/orgs/${orgId}/openapi/evented`, { source: { text: openapi30() } })).body;
    const done = await processedSpec(api, orgId, 'evented');
    expect((await api.delete(`/v1/orgs/${orgId}/openapi/evented`)).status).toBe(205);
    const mine = (e: { subject: string }) => e.subject === spec.id;
    const events = await readEvents(sut.env.KAFKA_BROKERS.split(','), `${sut.env.KAFKA_NAMESPACE}bindery.specs.v1`, (evs) =>
      evs.some((e) => mine(e) && e.type === 'specs.spec.deleted'),
    );
    const types = events.filter(mine).map((e) => e.type);
    // the version and the end of the processing are one write (their relative order is not kept)
    expect([types[0], [...types.slice(1, 3)].sort(), types[3], types.length]).toEqual([
      'specs.spec.created',
      ['specs.spec.processed', 'specs.spec_version.created'],
      'specs.spec.deleted',
      4,
    ]);
    expect(events.find((e) => mine(e) && e.type === 'specs.spec_version.created')).toMatchObject({
      organization: orgId,
      data: { organizationId: orgId, specId: spec.id, slug: 'evented', versionId: done.lastVersion, number: 1, hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
  });
});
