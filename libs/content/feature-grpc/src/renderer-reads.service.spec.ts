import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectContent, officialSemanticChange } from '@bindery/content/client';
import { IdentityEvents as I } from '@bindery/identity/client';
import { siteCaller } from '@bindery/platform/grpc';
import { ServiceUnderTest, startServiceUnderTest } from '@bindery/shared/testing';
import { identityStandIn } from '@bindery/identity/projection';
import type { ContentDeps } from './content-deps';
import { contentServiceWith } from './content-server';
import { embedsWith, getEmbed } from './embeds';

const admin = { userId: `admin-${randomBytes(3).toString('hex')}`, isInstanceAdmin: false };
const stranger = { userId: `stranger-${randomBytes(3).toString('hex')}`, isInstanceAdmin: false };
const org = `org-${randomBytes(3).toString('hex')}`;
const namespace = `rr${randomBytes(3).toString('hex')}.`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A loopback website recording every request: pages with OpenGraph tags, an oEmbed endpoint, a large page, a redirect. */
async function website() {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const url = req.url ?? '';
    requests.push(url);
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const html = (head: string, body = '') =>
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`);
    if (url === '/article')
      return html(
        '<title>Plain title</title><meta property="og:title" content="  The   article  "><meta property="og:site_name" content="Example News"><link rel="icon" href="/favicon.png">',
      );
    if (url === '/titled') return html('<title>Only a &amp; title</title>');
    if (url === '/video') return html(`<title>A video</title><link rel="alternate" type="application/json+oembed" href="${origin}/oembed?url=%2Fvideo">`);
    if (url.startsWith('/oembed'))
      return res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ version: '1.0', type: 'video', title: 'A video', provider_name: 'Tube', html: '<iframe src="https://tube.example/embed/1"></iframe>' }));
    if (url === '/large') return html(`<title>Large page</title><meta property="og:site_name" content="Big">`, 'x'.repeat(3 * 1024 * 1024));
    if (url === '/moved') return res.writeHead(302, { location: '/article' }).end();
    if (url === '/image.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(10));
    return res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, requests, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

describe("GitBook renderer's reads in content: a revision's changes, embeds (in process, real MongoDB and Kafka)", () => {
  let service: ServiceUnderTest<ContentDeps>;
  let clients: ReturnType<typeof connectContent>;
  let site: Awaited<ReturnType<typeof website>>;
  let spaceId = '';
  let emptyRevision = '';
  const revisions: string[] = [];
  let pageId = '';
  let token: ReturnType<typeof siteCaller>;

  const apply = async (changes: unknown[]) => {
    const r = await clients.revisions.applyChanges(
      { spaceId, changesJson: JSON.stringify(changes), updateCurrent: true, baseRevisionId: '', revisionType: '', mergedFrom: '', revertRevisionId: '' },
      { caller: admin },
    );
    revisions.push(r.revisionId);
    return r;
  };

  beforeAll(async () => {
    site = await website();
    // the deployed default: the outbound guard refuses loopback and private addresses
    service = await startServiceUnderTest(contentServiceWith(Date.now, identityStandIn), { CONTENT_PURGE_EVERY_MS: '86400000', KAFKA_NAMESPACE: namespace });
    expect(service.running.deps.embeds.allowPrivate).toBe(false);
    clients = connectContent(service.address, 20000);
    await service.running.deps.access.handlers[I.memberAdded.type](I.memberAdded.create('tests', admin.userId, { organizationId: org, userId: admin.userId, role: 'admin' }, org));
    const space = await clients.spaces.createSpace({ organizationId: org, title: 'Renderer reads' }, { caller: admin });
    [spaceId, emptyRevision] = [space.id, space.revision];
    const first = await apply([
      { operation: 'insert_page', title: 'Getting Started', document: { markdown: 'Welcome.' } },
      { operation: 'insert_page', title: 'Guides', document: { markdown: 'Guides.' } },
    ]);
    pageId = first.changes[0].pageId;
    await apply([{ operation: 'update_page', page: pageId, title: 'Start here' }]);
    token = siteCaller({ organizationId: org, siteId: 'site1', tokenId: 'token1', spaceIds: [spaceId] });
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
    await site?.close();
  });

  const changesOf = async (revisionId: string, caller = admin, limit = 0) => clients.revisions.getRevisionChanges({ spaceId, revisionId, limit }, { caller });

  test("a revision's changes against its parent; a first revision's pages are created", async () => {
    const first = await changesOf(revisions[0]);
    expect(first.changes.map(officialSemanticChange).map((c: Json) => [c.type, c.page.title])).toEqual(
      expect.arrayContaining([
        ['page_created', 'Getting Started'],
        ['page_created', 'Guides'],
      ]),
    );
    expect(first.changes).toHaveLength(2);
    expect(first.mergedFrom).toBeUndefined();
    const second = await changesOf(revisions[1]);
    expect(second.changes.map(officialSemanticChange)).toEqual([
      {
        type: 'page_edited',
        page: { id: pageId, type: 'document', title: 'Start here', path: 'getting-started' },
        attributes: { title: { before: 'Getting Started', after: 'Start here' } },
      },
    ]);
    // the limit, and how many were left out
    const limited = await changesOf(revisions[0], admin, 1);
    expect([limited.changes.length, limited.more]).toEqual([1, 1]);
    await expect(changesOf(revisions[0], admin, 1001)).rejects.toMatchObject({ kind: 'invalid' });
    // a space's first revision has no parent: a new space's is empty, a duplicate's holds every page, created
    expect((await changesOf(emptyRevision)).changes).toEqual([]);
    const copy = await clients.spaces.duplicateSpace({ spaceId }, { caller: admin });
    const copied = await clients.revisions.getRevisionChanges({ spaceId: copy.id, revisionId: copy.revision, limit: 0 }, { caller: admin });
    expect(copied.changes.map(officialSemanticChange).map((c: Json) => [c.type, c.page.title])).toEqual(
      expect.arrayContaining([
        ['page_created', 'Start here'],
        ['page_created', 'Guides'],
      ]),
    );
    expect(copied.changes).toHaveLength(2);
  });

  test("a site token of the space reads them; another space's token, a stranger and an unknown revision: not found", async () => {
    expect((await changesOf(revisions[1], token)).changes).toHaveLength(1);
    const elsewhere = siteCaller({ organizationId: org, siteId: 'site2', tokenId: 'token2', spaceIds: ['another-space'] });
    for (const [caller, revisionId] of [
      [elsewhere, revisions[1]],
      [stranger, revisions[1]],
      [admin, 'no-such-revision'],
    ] as const)
      await expect(changesOf(revisionId, caller)).rejects.toMatchObject({ kind: 'not_found' });
  });

  test('embeds: OpenGraph, <title>, icon and oEmbed html, through redirects; remembered by URL; fallbacks for what is no page', async () => {
    const deps = { ...service.running.deps, embeds: embedsWith({ timeoutMs: 5000, maxBytes: 64 * 1024, cacheMs: 60_000 }, true) };
    const embed = (url: string, caller = admin) => getEmbed(deps, caller, { spaceId, url });
    const o = site.origin;
    expect(await embed(`${o}/article#part`)).toEqual({ type: 'link', title: 'The article', site: 'Example News', icon: `${o}/favicon.png` });
    expect(await embed(`${o}/titled`, token)).toEqual({ type: 'link', title: 'Only a & title', site: '127.0.0.1' });
    expect(await embed(`${o}/video`)).toEqual({ type: 'rich', title: 'A video', site: 'Tube', html: '<iframe src="https://tube.example/embed/1"></iframe>' });
    // a page larger than the budget is read up to it: its head is enough
    expect(await embed(`${o}/large`)).toEqual({ type: 'link', title: 'Large page', site: 'Big' });
    expect(await embed(`${o}/moved`)).toEqual({ type: 'link', title: 'The article', site: 'Example News', icon: `${o}/favicon.png` });
    // no page to preview: a link named by the URL
    expect(await embed(`${o}/image.png`)).toEqual({ type: 'link', title: `${new URL(o).host}/image.png`, site: '127.0.0.1' });
    expect(await embed(`${o}/missing`)).toEqual({ type: 'link', title: `${new URL(o).host}/missing`, site: '127.0.0.1' });
    expect(await embed(`${o}/caf%C3%A9`)).toEqual({ type: 'link', title: `${new URL(o).host}/café`, site: '127.0.0.1' });
    expect(await embed(`${o}/broken%E0%A4%A`)).toEqual({ type: 'link', title: `${new URL(o).host}/broken%E0%A4%A`, site: '127.0.0.1' });
    // remembered: asked again (the fragment aside, and at once by three callers), the site is not asked again
    const before = site.requests.length;
    await Promise.all([embed(`${o}/article`), embed(`${o}/article#other`), embed(`${o}/video`, token)]);
    expect(site.requests.length).toBe(before);
    // credentials in the URL are never sent
    await embed(`http://user:secret@${new URL(o).host}/titled?fresh=1`);
    expect(site.requests.at(-1)).toBe('/titled?fresh=1');
  });

  test('embeds: the guard refuses loopback and private addresses (nothing reaches the site); others get the 404 of the space; bad URLs 400', async () => {
    const port = new URL(site.origin).port;
    const before = site.requests.length;
    const refused = [
      `${site.origin}/article`,
      `http://localhost:${port}/article`,
      `http://[::1]:${port}/article`,
      `http://2130706433:${port}/article`,
      `http://0x7f000001:${port}/article`,
      `http://[::ffff:127.0.0.1]:${port}/article`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/',
      'http://192.168.1.1/',
    ];
    for (const url of refused) {
      const err = await clients.embeds.getEmbed({ spaceId, url }, { caller: admin }).then(
        () => undefined,
        (e: { kind?: string; message?: string }) => e,
      );
      expect({ url, err }).toMatchObject({
        url,
        err: { kind: 'invalid', message: expect.stringMatching(/^The url was refused: host ".*" is a loopback, private or otherwise non-public address\.$/) },
      });
    }
    expect(site.requests.length).toBe(before);
    for (const url of ['ftp://example.com/', 'not a url', 'javascript:alert(1)'])
      await expect(clients.embeds.getEmbed({ spaceId, url }, { caller: admin })).rejects.toMatchObject({ kind: 'invalid' });
    const elsewhere = siteCaller({ organizationId: org, siteId: 'site2', tokenId: 'token2', spaceIds: ['another-space'] });
    for (const caller of [stranger, elsewhere])
      await expect(clients.embeds.getEmbed({ spaceId, url: `${site.origin}/article` }, { caller })).rejects.toMatchObject({ kind: 'not_found' });
    expect(site.requests.length).toBe(before);
  });
});
