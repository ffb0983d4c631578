import { randomBytes } from 'node:crypto';
import * as nodeHttp from 'node:http';
import type { AddressInfo } from 'node:net';
import { IdentityEvents as I } from '@bindery/identity/client';
import { identityStandIn } from '@bindery/identity/projection';
import { siteCaller } from '@bindery/platform/grpc';
import { connectSpecs } from '@bindery/specs/client';
import { eventually, FAST_RUN_SETTINGS, ServiceUnderTest, startServiceUnderTest } from '@bindery/shared/testing';
import type { SpecsDeps } from './specs-deps';
import { specsServiceWith } from './specs-server';

const hex = () => randomBytes(3).toString('hex');
const doc = (title: string) => JSON.stringify({ openapi: '3.0.3', info: { title, version: '1' }, paths: { '/pets': { get: { responses: { '200': { description: 'ok' } } } } } });

/** A published site's pages read their organization's specs through the site token's caller, and no other's. */
describe('published specs (in process, real MongoDB and Kafka)', () => {
  let service: ServiceUnderTest<SpecsDeps>;
  let clients: ReturnType<typeof connectSpecs>;
  let host: nodeHttp.Server;
  let origin: string;

  beforeAll(async () => {
    // a loopback host of one document (private addresses allowed for this test's service)
    host = nodeHttp.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(doc('By URL')));
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    service = await startServiceUnderTest(specsServiceWith({ accessSource: identityStandIn }), {
      ...FAST_RUN_SETTINGS,
      KAFKA_NAMESPACE: `p${hex()}.`,
      BINDERY_OUTBOUND_ALLOW_PRIVATE: 'true',
    });
    clients = connectSpecs(service.address, 10000);
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
    await new Promise<void>((resolve) => (host ? (host.closeAllConnections(), host.close(() => resolve())) : resolve()));
  });

  async function orgWithSpec(slug: string, title: string, source: { text?: string; url?: string } = { text: doc(title) }) {
    const org = `org-${hex()}`;
    const admin = { caller: { userId: `admin-${org}`, isInstanceAdmin: false } };
    await service.running.deps.access.handlers[I.memberAdded.type](
      I.memberAdded.create('tests', admin.caller.userId, { organizationId: org, userId: admin.caller.userId, role: 'admin' }, org),
    );
    await clients.specs.putSpec({ organizationId: org, slug, source }, admin);
    const spec = await eventually(async () => {
      const s = await clients.specs.getSpec({ organizationId: org, slug }, admin);
      if (!s.lastVersionId) throw new Error('not processed yet');
      return s;
    }, 20000);
    return { org, admin, spec };
  }
  const site = (organizationId: string) => ({ caller: siteCaller({ organizationId, siteId: `site-${hex()}`, tokenId: `tok${hex()}`, spaceIds: [] }) });

  test("a site token's caller reads its organization's latest version by slug; another organization's slug is not found", async () => {
    const a = await orgWithSpec('petstore', 'A');
    const b = await orgWithSpec('secret', 'B');
    const got = await clients.specs.getPublishedSpec({ slug: 'petstore', sourceUrl: '', knownVersionId: '' }, site(a.org));
    expect(got).toMatchObject({ specId: a.spec.id, slug: 'petstore', versionId: a.spec.lastVersionId, versionNumber: 1 });
    expect(got.files[0]).toMatchObject({ isEntrypoint: true, specification: { info: { title: 'A' } } });
    // b's spec, asked for by a site of a: no such spec there
    await expect(clients.specs.getPublishedSpec({ slug: 'secret', sourceUrl: '', knownVersionId: '' }, site(a.org))).rejects.toMatchObject({ kind: 'not_found' });
    expect((await clients.specs.getPublishedSpec({ slug: 'secret', sourceUrl: '', knownVersionId: '' }, site(b.org))).specId).toBe(b.spec.id);
    // members, even admins, use the API's reads; this one is the sites'
    await expect(clients.specs.getPublishedSpec({ slug: 'petstore', sourceUrl: '', knownVersionId: '' }, a.admin)).rejects.toMatchObject({ kind: 'forbidden' });
    // a site token's caller reads nothing else of specs
    await expect(clients.specs.getVersionContent({ organizationId: a.org, slug: 'petstore', versionId: '' }, site(a.org))).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(clients.specs.getPublishedSpec({ slug: '', sourceUrl: '', knownVersionId: '' }, site(a.org))).rejects.toMatchObject({ kind: 'invalid' });
  });

  test('a new processed version is what the site reads next', async () => {
    const a = await orgWithSpec('pets', 'One');
    await clients.specs.putSpec({ organizationId: a.org, slug: 'pets', source: { text: doc('Two') } }, a.admin);
    const next = await eventually(async () => {
      const got = await clients.specs.getPublishedSpec({ slug: 'pets', sourceUrl: '', knownVersionId: '' }, site(a.org));
      if (got.versionNumber !== 2) throw new Error(`still version ${got.versionNumber}`);
      return got;
    }, 20000);
    expect(next.files[0].specification!.info.title).toBe('Two');
    // a caller holding that version gets no files again; one holding an older one gets them
    const again = await clients.specs.getPublishedSpec({ slug: 'pets', sourceUrl: '', knownVersionId: next.versionId }, site(a.org));
    expect(again).toMatchObject({ versionId: next.versionId, versionNumber: 2, files: [] });
    const older = await clients.specs.getPublishedSpec({ slug: 'pets', sourceUrl: '', knownVersionId: a.spec.lastVersionId! }, site(a.org));
    expect(older.files[0].specification!.info.title).toBe('Two');
  });

  test("a swagger block's URL finds the organization's spec sourced from it, and no other organization's", async () => {
    const url = `${origin}/openapi.json`;
    const a = await orgWithSpec('by-url', 'ignored', { url });
    const got = await clients.specs.getPublishedSpec({ slug: '', sourceUrl: url, knownVersionId: '' }, site(a.org));
    expect(got).toMatchObject({ specId: a.spec.id, slug: 'by-url' });
    expect(got.files[0].specification!.info.title).toBe('By URL');
    const b = await orgWithSpec('other', 'B');
    await expect(clients.specs.getPublishedSpec({ slug: '', sourceUrl: url, knownVersionId: '' }, site(b.org))).rejects.toMatchObject({ kind: 'not_found' });
    await expect(clients.specs.getPublishedSpec({ slug: '', sourceUrl: `${origin}/other.json`, knownVersionId: '' }, site(a.org))).rejects.toMatchObject({ kind: 'not_found' });
  });
});
