import { randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectContent } from '@bindery/content/client';
import { IdentityEvents as I } from '@bindery/identity/client';
import type { RunContext } from '@bindery/platform/runs';
import { startServiceUnderTest, ServiceUnderTest } from '@bindery/shared/testing';
import type { ContentDeps } from '../content-deps';
import { contentServiceWith } from '../content-server';
import { identityStandIn } from '@bindery/identity/projection';
import { ImportInput, runWebsiteImport, WEBSITE_IMPORT_RUN } from './import-website.service';

const admin = { userId: `admin-${randomBytes(3).toString('hex')}`, isInstanceAdmin: false };
const org = `org-${randomBytes(3).toString('hex')}`;

/** A three-page site on loopback. */
function startSite(): Promise<Server> {
  const pages: Record<string, string> = {
    '/docs/': '<h1>Home</h1><a href="/docs/a">A</a> <a href="/docs/b">B</a>',
    '/docs/a': '<h1>A</h1><p>Alpha</p>',
    '/docs/b': '<h1>B</h1><p>Beta</p>',
  };
  const server = createServer((req, res) => {
    const body = pages[req.url ?? ''];
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><main>${body}</main></body></html>`);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('website import run (content in process, real MongoDB)', () => {
  let service: ServiceUnderTest<ContentDeps>;
  let site: Server;

  beforeAll(async () => {
    site = await startSite();
    service = await startServiceUnderTest(contentServiceWith(Date.now, identityStandIn), { BINDERY_OUTBOUND_ALLOW_PRIVATE: 'true', CONTENT_PURGE_EVERY_MS: '86400000' });
    await service.running.deps.access.handlers[I.memberAdded.type](I.memberAdded.create('tests', admin.userId, { organizationId: org, userId: admin.userId, role: 'admin' }, org));
  });
  afterAll(async () => {
    await service?.stop();
    await new Promise((r) => site?.close(r));
  });

  // Longer than the tier: two attempts crawl the test site at once.
  test('two attempts of one run at once (a worker that seemed dead and its takeover) write one revision and both answer it', async () => {
    const clients = connectContent(service.address, 10000);
    try {
      const space = await clients.spaces.createSpace({ organizationId: org, title: 'Twice' }, { caller: admin });
      const deps = service.running.deps;
      const input: ImportInput = {
        spaceId: space.id,
        url: `http://127.0.0.1:${(site.address() as AddressInfo).port}/docs/`,
        baseRevisionId: '',
        updateCurrent: true,
        userId: admin.userId,
        isInstanceAdmin: false,
      };
      // due far ahead, so the service's own worker leaves it to this test
      const { run } = await deps.imports!.runs.enqueue({ kind: WEBSITE_IMPORT_RUN, input: { ...input }, organizationId: org, dueAt: new Date(Date.now() + 3600_000) });
      const ctx = (attempt: number): RunContext => ({ run, attempt, signal: new AbortController().signal, progress: async () => undefined });
      const [one, two] = await Promise.all([runWebsiteImport(deps, deps.imports!, input, ctx(1)), runWebsiteImport(deps, deps.imports!, input, ctx(2))]);
      expect(one.revision).toBe(two.revision);
      const written = await deps.revisions.findByMergeKey(space.id, `import:${run._id}`);
      expect(written?._id).toBe(one.revision);
      expect((await clients.spaces.getSpace({ spaceId: space.id }, { caller: admin })).revision).toBe(one.revision);
      // a third attempt after the fact finds the revision and writes nothing
      const three = await runWebsiteImport(deps, deps.imports!, input, ctx(3));
      expect(three.revision).toBe(one.revision);
      expect((await clients.spaces.getSpace({ spaceId: space.id }, { caller: admin })).revision).toBe(one.revision);
    } finally {
      clients.close();
    }
  }, 60_000);

  // Longer than the tier: a run claimed by the worker and failed.
  test('a site that answers 404 fails at once, without retrying', async () => {
    const clients = connectContent(service.address, 10000);
    try {
      const space = await clients.spaces.createSpace({ organizationId: org, title: 'Missing' }, { caller: admin });
      const deps = service.running.deps;
      const input: ImportInput = {
        spaceId: space.id,
        url: `http://127.0.0.1:${(site.address() as AddressInfo).port}/none/`,
        baseRevisionId: '',
        updateCurrent: true,
        userId: admin.userId,
        isInstanceAdmin: false,
      };
      const { run } = await deps.imports!.runs.enqueue({ kind: WEBSITE_IMPORT_RUN, input: { ...input }, organizationId: org, dueAt: new Date(Date.now() + 3600_000) });
      const ctx: RunContext = { run, attempt: 1, signal: new AbortController().signal, progress: async () => undefined };
      await expect(runWebsiteImport(deps, deps.imports!, input, ctx)).rejects.toMatchObject({ name: 'PermanentRunFailure', message: 'The url answered HTTP 404.' });
    } finally {
      clients.close();
    }
  }, 60_000);
});
