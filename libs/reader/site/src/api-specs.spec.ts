import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiSpecName, PublishedApiSpec } from '@bindery/reader/render';
import { ApiSpecAnswer, ApiSpecSource, CachedApiSpecs } from './api-specs';
import { CachedSource } from './cached-source';
import { FixtureSource } from './fixture-source';
import { createReader } from './reader';
import { freshnessHandlers } from './freshness';
import { SpecsEvents } from '@bindery/specs/client';
import { sampleSites } from './sample-site';

const petsSpec = (summary: string, versionId: string): PublishedApiSpec => ({
  specId: 'spec-acme-api',
  versionId,
  files: [
    {
      filename: 'openapi.json',
      isEntrypoint: true,
      specification: {
        openapi: '3.0.3',
        info: { title: 'Acme', version: '1' },
        servers: [{ url: 'https://api.acme.example' }],
        paths: { '/pets': { get: { summary, responses: { '200': { description: 'The pets' } } } } },
      },
    },
  ],
});

/** Specs in memory, per organization and slug, counting what is asked and what files are sent. */
class MemorySpecs implements ApiSpecSource {
  readonly specs = new Map<string, PublishedApiSpec>();
  calls = 0;
  filesSent = 0;
  async publishedSpec(site: { organizationId: string }, name: ApiSpecName, known?: string): Promise<ApiSpecAnswer | undefined> {
    this.calls += 1;
    const spec = 'slug' in name ? this.specs.get(`${site.organizationId}/${name.slug}`) : undefined;
    if (!spec) return undefined;
    if (known === spec.versionId) return { specId: spec.specId, versionId: spec.versionId, slug: 'acme-api' };
    this.filesSent += 1;
    return { specId: spec.specId, versionId: spec.versionId, slug: 'acme-api', files: spec.files };
  }
}

describe('API blocks on published pages (sample sites, specs in memory)', () => {
  let server: Server;
  let url: string;
  const memory = new MemorySpecs();
  const apiSpecs = new CachedApiSpecs(memory, { ttlMs: 60_000 });

  beforeAll(async () => {
    const { sites, spaces } = sampleSites();
    const source = new CachedSource(new FixtureSource(sites, spaces), { resolveTtlMs: 60_000 });
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    server.on('request', createReader({ source, apiSpecs, publicUrl: url }).handle);
  });
  afterAll(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));

  const rich = async () => (await fetch(`${url}/acme-inc/acme/rich`)).text();

  test("the block shows its note until the site's organization has the spec; then the operation; a new version after its event", async () => {
    expect(await rich()).toContain('the API reference is not shown here yet');
    // another organization's spec of that slug is not the site's
    memory.specs.set('org-globex/acme-api', petsSpec('Not ours', 'v0'));
    apiSpecs.invalidateSpec('org-acme', 'acme-api');
    expect(await rich()).not.toContain('Not ours');

    memory.specs.set('org-acme/acme-api', petsSpec('List the pets', 'v1'));
    apiSpecs.invalidateSpec('org-acme', 'acme-api');
    const page = await rich();
    expect(page).toContain('<h3 class="api-title">List the pets</h3>');
    expect(page.replace(/<[^>]+>/g, '')).toContain("curl -X GET 'https://api.acme.example/pets'");
    expect(page).not.toContain('the API reference is not shown here yet');

    // within the TTL, no call; the page is served from the render cache
    const calls = memory.calls;
    expect(await rich()).toBe(page);
    expect(memory.calls).toBe(calls);

    // a new version: shown once its event drops the cached latest version (another organization's event drops nothing)
    memory.specs.set('org-acme/acme-api', petsSpec('List every pet', 'v2'));
    expect(await rich()).toContain('List the pets');
    const handlers = freshnessHandlers({ invalidateSite: () => undefined, invalidateAll: () => undefined, invalidateApiSpec: (o, slug) => apiSpecs.invalidateSpec(o, slug) });
    const created = (organizationId: string) =>
      SpecsEvents.specVersionCreated.create(
        'specs',
        'spec-acme-api',
        { organizationId, specId: 'spec-acme-api', slug: 'acme-api', versionId: 'v2', number: 2, hash: 'h' },
        organizationId,
      );
    await handlers[SpecsEvents.specVersionCreated.type](created('org-globex'));
    expect(await rich()).toContain('List the pets');
    await handlers[SpecsEvents.specVersionCreated.type](created('org-acme'));
    expect(await rich()).toContain('<h3 class="api-title">List every pet</h3>');

    // asked again with the version held: the files are not sent twice
    const sent = memory.filesSent;
    apiSpecs.invalidateSpec('org-acme', 'acme-api');
    expect(await rich()).toContain('List every pet');
    expect(memory.filesSent).toBe(sent);
  });
});
