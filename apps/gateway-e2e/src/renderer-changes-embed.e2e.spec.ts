import * as nodeHttp from 'node:http';
import type { AddressInfo } from 'node:net';
import { assertMatchesSpec, sharedOutboundSystem, SystemUnderTest } from '@bindery/shared/testing';
import { editChangeRequest, mergeChangeRequest, openChangeRequest } from './change-request-fixtures';
import { createSpace, unknownId } from './content-fixtures';
import { ContentWriter, contentWriter } from './content-writer';
import { createOrganization, organizationWithEveryRole } from './fixtures';
import { http } from './http-client';
import { Caller, CALLERS, callerClients, Client, matrixMismatches, MatrixRow } from './matrix';
import { createPublishedSite, createShareLink, siteToken } from './site-fixtures';

type Who = Caller | 'siteToken' | 'otherSiteToken' | 'foreignSiteToken';
const WHO: Who[] = [...CALLERS, 'siteToken', 'otherSiteToken', 'foreignSiteToken'];

interface Ctx {
  spaceId: string;
  revisionId: string;
  embedUrl: string;
  /** 404s that differ from the same call about a space id that names nothing */
  shapes: string[];
}

type Path = (spaceId: string, x: Ctx) => string;

// What GitBook's renderer reads beside pages, with a site token (or as a member): a revision's
// semantic changes and the embed of a URL. Readers of the space (every role: the space inherits the
// organization's) and a site token of a site showing the space: 200. A guest without a grant, another
// organization's admin, a site token of another site of the organization (not showing the space) and
// one of another organization: the 404 of a space that does not exist. A bad token or none: 401.
//                                                      admin create review edit comment read guest stranger bad none site otherSite foreignSite
const ROWS: Array<{ name: string; path: Path; expect: number[] }> = [
  {
    name: 'GET revisions/{revisionId}/changes (getRevisionSemanticChanges)',
    path: (id, x) => `/v1/spaces/${id}/revisions/${x.revisionId}/changes`,
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401, 200, 404, 404],
  },
  {
    name: 'GET embed?url= (getEmbedByUrlInSpace)',
    path: (id, x) => `/v1/spaces/${id}/embed?url=${encodeURIComponent(x.embedUrl)}`,
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401, 200, 404, 404],
  },
];

const rows: Array<MatrixRow<Ctx, Who>> = ROWS.map((row) => ({
  name: row.name,
  expect: row.expect,
  async call(c: Client, x: Ctx, who: Who) {
    const res = await c.get(row.path(x.spaceId, x));
    if (res.status === 404) {
      const ghostId = unknownId();
      const ghost = await c.get(row.path(ghostId, x));
      const seen = JSON.stringify(res.body).split(x.spaceId).join('<id>');
      const unknown = JSON.stringify(ghost.body).split(ghostId).join('<id>');
      if (ghost.status !== res.status || seen !== unknown) x.shapes.push(`${row.name} as ${who}: ${res.status} ${seen}, for an unknown space ${ghost.status} ${unknown}`);
    }
    return res;
  },
}));

/** A loopback page with OpenGraph tags and a JSON oEmbed endpoint answering a video (the system under test may reach loopback). */
async function previewedSite() {
  const requests: string[] = [];
  const server = nodeHttp.createServer((req, res) => {
    requests.push(req.url ?? '');
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (req.url?.startsWith('/oembed'))
      return res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ version: '1.0', type: 'video', provider_name: 'Tube', html: '<iframe src="https://tube.example/v/1"></iframe>' }));
    const oembed = req.url === '/video' ? `<link rel="alternate" type="application/json+oembed" href="${origin}/oembed?url=video">` : '';
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        `<html><head><title>Fallback</title><meta property="og:title" content="Release notes"><meta property="og:site_name" content="Example">${oembed}<link rel="icon" href="/icon.png"></head></html>`,
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, requests, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

describe("GitBook renderer's reads: a revision's changes and embeds (site tokens and members)", () => {
  let sut: SystemUnderTest;
  let clients: Record<Who, Client>;
  let ctx: Ctx;
  let writer: ContentWriter;
  let page: Awaited<ReturnType<typeof previewedSite>>;
  let firstRevision = '';
  let pageId = '';

  // Longer than the tier: seeds an organization with every role, two published sites and another organization's.
  beforeAll(async () => {
    page = await previewedSite();
    sut = await sharedOutboundSystem();
    const org = await organizationWithEveryRole(sut);
    writer = contentWriter(sut);
    const admin = http(sut.baseUrl, org.members.admin.token);
    const spaceId = (await createSpace(admin, org.orgId, { title: 'Release notes' })).id;
    const first = await writer.apply(org.members.admin.id, spaceId, [
      { operation: 'insert_page', title: 'Overview', document: { markdown: 'First.' } },
      { operation: 'insert_page', title: 'Changelog', document: { markdown: 'Nothing yet.' } },
    ]);
    firstRevision = first.revisionId;
    pageId = first.changes[0].page.id as string;
    const second = await writer.apply(org.members.admin.id, spaceId, [{ operation: 'update_page', page: pageId, title: 'Introduction' }]);
    const site = await createPublishedSite(admin, org.orgId, [spaceId]);
    const otherSpace = (await createSpace(admin, org.orgId, { title: 'Elsewhere' })).id;
    const other = await createPublishedSite(admin, org.orgId, [otherSpace]);
    const stranger = http(sut.baseUrl, org.stranger.token);
    const foreignOrg = await createOrganization(sut, org.stranger, 'Foreign renderer');
    const foreign = await createPublishedSite(stranger, foreignOrg, [(await createSpace(stranger, foreignOrg, { title: 'Foreign' })).id]);
    clients = {
      ...callerClients(sut, org),
      siteToken: http(sut.baseUrl, await siteToken(admin, site, (await createShareLink(admin, org.orgId, site.id)).key)),
      otherSiteToken: http(sut.baseUrl, await siteToken(admin, other, (await createShareLink(admin, org.orgId, other.id)).key)),
      foreignSiteToken: http(sut.baseUrl, await siteToken(stranger, foreign, (await createShareLink(stranger, foreignOrg, foreign.id)).key)),
    };
    ctx = { spaceId, revisionId: second.revisionId, embedUrl: `${page.origin}/notes`, shapes: [] };
  }, 180_000);
  afterAll(async () => {
    writer?.close();
    await page?.close();
  });

  it('answers every caller as written; a hidden space like a nonexistent one', async () => {
    expect(await matrixMismatches(rows, WHO, clients, ctx)).toEqual([]);
    expect(ctx.shapes).toEqual([]);
  }, 120_000);

  it("a revision's changes, official (0.202.0) for a site token and a member; a first revision's pages created; a merge names its change request", async () => {
    const path = '/spaces/{spaceId}/revisions/{revisionId}/changes';
    const changes = (revisionId: string, who: Who, query = '') => clients[who].get(`/v1/spaces/${ctx.spaceId}/revisions/${revisionId}/changes${query}`);
    const edited = await changes(ctx.revisionId, 'siteToken', '?metadata=false&computed=false');
    expect(edited.status).toBe(200);
    assertMatchesSpec('0.202.0', 'get', path, 200, edited.body);
    expect(edited.body).toEqual({
      changes: [
        {
          type: 'page_edited',
          page: { id: pageId, type: 'document', title: 'Introduction', path: 'overview' },
          attributes: { title: { before: 'Overview', after: 'Introduction' } },
        },
      ],
    });
    const created = await changes(firstRevision, 'read', '?limit=1');
    assertMatchesSpec('0.202.0', 'get', path, 200, created.body);
    expect(created.body.changes.map((c: { type: string }) => c.type)).toEqual(['page_created']);
    expect(created.body.more).toBe(1);
    expect((await changes(firstRevision, 'read', '?limit=0')).status).toBe(400);

    const admin = clients.admin;
    const cr = await openChangeRequest(admin, ctx.spaceId, 'Add a page');
    await editChangeRequest(admin, ctx.spaceId, cr.id as string, [{ operation: 'insert_page', title: 'Upgrading', document: { markdown: 'Steps.' } }]);
    const merged = await mergeChangeRequest(admin, ctx.spaceId, cr.id as string);
    const asMember = await changes(merged.revision, 'read');
    assertMatchesSpec('0.202.0', 'get', path, 200, asMember.body);
    expect(asMember.body.mergedFrom).toMatchObject({ id: cr.id, number: cr.number });
    expect(asMember.body.changes.map((c: { type: string; page: { title: string } }) => [c.type, c.page.title])).toEqual([['page_created', 'Upgrading']]);
    const asSite = await changes(merged.revision, 'siteToken');
    assertMatchesSpec('0.202.0', 'get', path, 200, asSite.body);
    // the same change request, its people named without their addresses (identity's rule for site tokens)
    expect(asSite.body).toMatchObject({ changes: asMember.body.changes, mergedFrom: { id: cr.id, number: cr.number, createdBy: { id: asMember.body.mergedFrom.createdBy.id } } });
    expect(JSON.stringify(asSite.body)).not.toContain('@example.com');

    // the merge revision by id (getRevisionById, as GitBook's renderer asks it): a site token reads it, its change request named
    const revisionPath = '/spaces/{spaceId}/revisions/{revisionId}';
    const byId = (who: Who) => clients[who].get(`/v1/spaces/${ctx.spaceId}/revisions/${merged.revision}?metadata=true`);
    const revisionAsSite = await byId('siteToken');
    expect(revisionAsSite.status).toBe(200);
    assertMatchesSpec('0.202.0', 'get', revisionPath, 200, revisionAsSite.body);
    assertMatchesSpec('0.130.0', 'get', revisionPath, 200, revisionAsSite.body);
    expect(revisionAsSite.body).toMatchObject({ id: merged.revision, type: 'merge', mergedFrom: { id: cr.id, number: cr.number, status: 'merged' } });
    const revisionAsMember = await byId('read');
    expect({ ...revisionAsSite.body, mergedFrom: undefined }).toEqual({ ...revisionAsMember.body, mergedFrom: undefined });
    expect(JSON.stringify(revisionAsSite.body)).not.toContain('@example.com');
  });

  it('an embed, official (0.202.0): link from OpenGraph, rich with the oEmbed html; fetched once per URL', async () => {
    const path = '/spaces/{spaceId}/embed';
    const embed = (url: string, who: Who) => clients[who].get(`/v1/spaces/${ctx.spaceId}/embed?url=${encodeURIComponent(url)}`);
    const link = await embed(`${page.origin}/release`, 'siteToken');
    expect(link.status).toBe(200);
    assertMatchesSpec('0.202.0', 'get', path, 200, link.body);
    expect(link.body).toEqual({ type: 'link', title: 'Release notes', site: 'Example', icon: `${page.origin}/icon.png` });
    const rich = await embed(`${page.origin}/video`, 'read');
    assertMatchesSpec('0.202.0', 'get', path, 200, rich.body);
    expect(rich.body).toEqual({ type: 'rich', title: 'Release notes', site: 'Example', icon: `${page.origin}/icon.png`, html: '<iframe src="https://tube.example/v/1"></iframe>' });
    const asked = page.requests.length;
    expect((await embed(`${page.origin}/video`, 'siteToken')).body).toEqual(rich.body);
    expect(page.requests.length).toBe(asked);
    // the query is required and must be an http(s) URL
    for (const query of ['', '?url=', '?url=ftp%3A%2F%2Fexample.com%2F', '?url=not%20a%20url'])
      expect((await clients.read.get(`/v1/spaces/${ctx.spaceId}/embed${query}`)).status).toBe(400);
  });
});
