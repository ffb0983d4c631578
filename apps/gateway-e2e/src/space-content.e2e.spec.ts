import { GitBookAPI } from '@gitbook/api';
import { assertErrorBody, assertMatchesSpec, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { unknownId } from './content-fixtures';
import { ContentWriter, contentWriter } from './content-writer';
import { emptySpace, flatPages, Json, pageIdsOf, PNG_BASE64, seededSpace } from './content-model-fixtures';
import { createOrganization, createUser, TestUser } from './fixtures';
import { Client, http } from './http-client';

const OLD = '0.130.0';
/** getPageByPath and the history reads: both releases have them; the answers must match both. */
const NEW = ['0.202.0', '0.130.0'] as const;
const S = '/spaces/{spaceId}';

/** GET `path` as `client`, expecting 200, and validates the body against the official operation (in each release given). */
async function read(client: Client, path: string, versions: typeof OLD | typeof NEW, specPath: string): Promise<Json> {
  const res = await client.get(path);
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  for (const version of typeof versions === 'string' ? [versions] : versions) assertMatchesSpec(version, 'get', specPath, 200, res.body);
  return res.body;
}

describe('space content through HTTP (revisions, pages, files, links)', () => {
  let sut: SystemUnderTest;
  let owner: TestUser;
  let orgId: string;
  let admin: Client;
  let writer: ContentWriter;
  let api: GitBookAPI;
  /** the seeded tree: Intro · Guide › Install › On Linux · Links */
  let seed: Awaited<ReturnType<typeof seededSpace>>;

  beforeAll(async () => {
    sut = await sharedSystem();
    owner = await createUser(sut, 'content-owner');
    orgId = await createOrganization(sut, owner, 'Content model');
    admin = http(sut.baseUrl, owner.token);
    writer = contentWriter(sut);
    api = new GitBookAPI({ endpoint: sut.baseUrl, authToken: owner.token });
    seed = await seededSpace(admin, writer, owner.id, orgId);
  });

  afterAll(() => writer?.close());

  it('serves the current revision and the page tree, paths from slug chains, as the official shapes', async () => {
    const { spaceId, revisionId, pages } = seed;
    const revision = await read(admin, `/v1/spaces/${spaceId}/content`, OLD, `${S}/content`);
    expect(revision).toMatchObject({ object: 'revision', id: revisionId, files: [] });
    expect(revision.urls.app).toMatch(/^https?:\/\//);
    const shape = (ps: Json[]): unknown[] => ps.map((p) => [p.title, p.slug, p.path, shape(p.pages)]);
    expect(shape(revision.pages)).toEqual([
      ['Intro', 'intro', 'intro', []],
      ['Guide', 'guide', 'guide', [['Install', 'install', 'guide/install', [['On Linux', 'on-linux', 'guide/install/on-linux', []]]]]],
      ['Links', 'links', 'links', []],
    ]);
    expect(flatPages(revision.pages).map((p) => p.id)).toEqual([pages.intro, pages.guide, pages.install, pages.linux, pages.links]);
    for (const p of flatPages(revision.pages)) expect(p).toMatchObject({ kind: 'sheet', type: 'document', document: { object: 'document' } });

    const listed = await read(admin, `/v1/spaces/${spaceId}/content/pages`, OLD, `${S}/content/pages`);
    expect(listed.pages).toEqual(revision.pages);
    // metadata=false and computed are accepted.
    expect((await read(admin, `/v1/spaces/${spaceId}/content?metadata=false&computed=false`, OLD, `${S}/content`)).id).toBe(revisionId);

    // The official client reads the same.
    const viaClient = await api.spaces.getCurrentRevision(spaceId);
    expect(viaClient.data.id).toBe(revisionId);
    expect((await api.spaces.listPages(spaceId)).data.pages).toEqual(revision.pages);
  });

  it('derives slugs from titles, unique among siblings and stable when the title changes', async () => {
    const spaceId = await emptySpace(admin, orgId, 'Slugs');
    const [a, b] = pageIdsOf(
      await writer.apply(owner.id, spaceId, [
        { operation: 'insert_page', title: 'Intro', document: {} },
        { operation: 'insert_page', title: 'Intro', emoji: '1f600', description: 'The second intro', hidden: true, document: {} },
      ]),
    );
    const [child] = pageIdsOf(await writer.apply(owner.id, spaceId, [{ operation: 'insert_page', title: 'Intro', into: b, document: {} }]));
    const renamed = await writer.apply(owner.id, spaceId, [{ operation: 'update_page', page: a, title: 'Introduction' }]);
    expect(renamed.changes).toEqual([{ object: 'updated_page', page: expect.objectContaining({ object: 'page', id: a }) }]);
    const tree = (await read(admin, `/v1/spaces/${spaceId}/content/pages`, OLD, `${S}/content/pages`)).pages as Json[];
    expect(flatPages(tree).map((p) => [p.id, p.title, p.slug, p.path])).toEqual([
      [a, 'Introduction', 'intro', 'intro'],
      [b, 'Intro', 'intro-1', 'intro-1'],
      // the same title under another parent keeps the plain slug
      [child, 'Intro', 'intro', 'intro-1/intro'],
    ]);
    expect(tree[1]).toMatchObject({ emoji: '1f600', description: 'The second intro', hidden: true });
    // A slug a sibling has is refused, and nothing changes.
    await expect(writer.apply(owner.id, spaceId, [{ operation: 'update_page', page: b, slug: 'intro' }])).rejects.toMatchObject({ kind: 'invalid' });
    expect((await read(admin, `/v1/spaces/${spaceId}/content`, OLD, `${S}/content`)).id).toBe(renamed.revisionId);
  });

  it('reads a page as a document or as Markdown, by id and by a nested path', async () => {
    const spaceId = await emptySpace(admin, orgId, 'Formats');
    const [guide] = pageIdsOf(await writer.apply(owner.id, spaceId, [{ operation: 'insert_page', title: 'Guide', document: {} }]));
    const [deep] = pageIdsOf(
      await writer.apply(owner.id, spaceId, [{ operation: 'insert_page', title: 'Deep Page', into: guide, document: { markdown: 'Some **bold** text.\n\n- one\n- two' } }]),
    );
    const base = `/v1/spaces/${spaceId}/content`;
    const asDocument = await read(admin, `${base}/page/${deep}`, OLD, `${S}/content/page/{pageId}`);
    expect(asDocument).toMatchObject({ id: deep, title: 'Deep Page', slug: 'deep-page', path: 'guide/deep-page', type: 'document', document: { object: 'document' } });
    expect(asDocument.markdown).toBeUndefined();
    expect(JSON.stringify(asDocument.document)).toContain('bold');
    expect(await read(admin, `${base}/page/${deep}?format=document`, OLD, `${S}/content/page/{pageId}`)).toEqual(asDocument);

    const asMarkdown = await read(admin, `${base}/page/${deep}?format=markdown&evaluated=true`, OLD, `${S}/content/page/{pageId}`);
    expect(asMarkdown.document).toBeUndefined();
    expect(asMarkdown.markdown).toContain('**bold**');
    expect(asMarkdown.markdown).toMatch(/^[-*] one$/m);

    // By path (the path holds a slash), in either format; the parent lists it.
    const byPath = await read(admin, `${base}/path/guide/deep-page`, NEW, `${S}/content/path/{pagePath}`);
    expect(byPath).toEqual(asDocument);
    expect((await read(admin, `${base}/path/guide/deep-page?format=markdown`, NEW, `${S}/content/path/{pagePath}`)).markdown).toBe(asMarkdown.markdown);
    const parent = await read(admin, `${base}/path/guide`, NEW, `${S}/content/path/{pagePath}`);
    expect(parent.pages.map((p: Json) => p.id)).toEqual([deep]);
    for (const missing of ['guide/nope', 'deep-page', 'guide/deep-page/more']) {
      const res = await admin.get(`${base}/path/${missing}`);
      expect([missing, res.status]).toEqual([missing, 404]);
      assertErrorBody(404, res.body);
    }

    // The official client.
    expect((await api.spaces.getPageById(spaceId, deep, { format: 'markdown' })).data).toMatchObject({ id: deep, markdown: asMarkdown.markdown });
    expect((await api.spaces.getPageByPath(spaceId, 'guide/deep-page')).data).toMatchObject({ id: deep });
  });

  it('reports links with their status: a deleted target breaks them in the next revision, the old revision stays readable', async () => {
    const spaceId = await emptySpace(admin, orgId, 'Links');
    const first = await writer.apply(owner.id, spaceId, [
      { operation: 'insert_page', title: 'Target', ref: 'target', document: { markdown: 'The target.' } },
      { operation: 'insert_page', title: 'Source', document: { markdown: 'Go to [the target](/pages/target), [the web](https://example.com/docs) or [nowhere](/pages/missing).' } },
    ]);
    const [target, source] = pageIdsOf(first);
    // An unresolvable link is plain text: no link, no reference.
    const sourceMd = (await read(admin, `/v1/spaces/${spaceId}/content/page/${source}?format=markdown`, OLD, `${S}/content/page/{pageId}`)).markdown as string;
    expect(sourceMd).toContain(`[the target](/pages/${target})`);
    expect(sourceMd).toContain('nowhere');
    expect(sourceMd).not.toContain('missing');
    // A second page links to the target by id: the same target, two locations.
    const [byId] = pageIdsOf(await writer.apply(owner.id, spaceId, [{ operation: 'insert_page', title: 'By id', document: { markdown: `[Target](/pages/${target})` } }]));
    const links = `/v1/spaces/${spaceId}/links`;
    const before = await read(admin, links, OLD, `${S}/links`);
    expect(before.stats).toEqual({ total: 2, broken: { total: 0 } });
    expect(before.items).toHaveLength(2);
    const pageLink = before.items.find((i: Json) => i.targetReference?.kind === 'page');
    expect(pageLink).toMatchObject({ status: 'ok', relation: 'reference', targetReference: { kind: 'page', page: { id: target } } });
    expect(pageLink.locationReferences.map((l: Json) => [l.kind, l.page.id, l.space.id]).sort()).toEqual([byId, source].sort().map((id) => ['page', id, spaceId]));
    expect(before.items.find((i: Json) => i.targetReference?.kind === 'url')).toMatchObject({ status: 'ok', targetReference: { url: 'https://example.com/docs' } });
    const ofSource = await read(admin, `/v1/spaces/${spaceId}/content/page/${source}/links`, OLD, `${S}/content/page/{pageId}/links`);
    expect(ofSource.stats).toEqual(before.stats);
    expect((await read(admin, `/v1/spaces/${spaceId}/content/page/${target}/links`, OLD, `${S}/content/page/{pageId}/links`)).items).toEqual([]);
    expect((await api.spaces.listSpaceLinks(spaceId)).data.stats).toEqual(before.stats);

    const deletion = await writer.apply(owner.id, spaceId, [{ operation: 'delete_page', page: target }]);
    expect(deletion.changes).toEqual([{ object: 'deleted_page', page: target }]);
    const after = await read(admin, links, OLD, `${S}/links`);
    expect(after.stats).toEqual({ total: 2, broken: { total: 1 } });
    const broken = await read(admin, `${links}?status=broken`, OLD, `${S}/links`);
    expect(broken.items).toHaveLength(1);
    expect(broken.items[0].status).toBe('broken');
    expect(broken.items[0].locationReferences.map((l: Json) => l.page.id).sort()).toEqual([byId, source].sort());
    expect(broken.items[0].targetReference).toBeUndefined();
    expect((await read(admin, `${links}?status=ok`, OLD, `${S}/links`)).items.map((i: Json) => i.targetReference.kind)).toEqual(['url']);
    expect((await read(admin, `${links}?status=in-app`, OLD, `${S}/links`)).items).toEqual([]);

    // The revision before the deletion still has the target, by id and by path.
    const old = `/v1/spaces/${spaceId}/revisions/${first.revisionId}`;
    const R = `${S}/revisions/{revisionId}`;
    const oldRevision = await read(admin, old, NEW, R);
    expect(oldRevision.pages.map((p: Json) => p.id)).toEqual([target, source]);
    expect((await read(admin, `${old}/pages`, NEW, `${R}/pages`)).pages).toEqual(oldRevision.pages);
    expect((await read(admin, `${old}/page/${target}`, NEW, `${R}/page/{pageId}`)).title).toBe('Target');
    expect((await read(admin, `${old}/path/target?format=markdown`, NEW, `${R}/path/{pagePath}`)).markdown).toContain('The target.');
    expect((await read(admin, `/v1/spaces/${spaceId}/revisions/${deletion.revisionId}`, NEW, R)).pages.map((p: Json) => p.id)).toEqual([source, byId]);
    const gone = await admin.get(`/v1/spaces/${spaceId}/content/page/${target}`);
    expect(gone.status).toBe(404);
    assertErrorBody(404, gone.body);
  });

  it('stores files, lists them a page at a time, and lists the pages that use one', async () => {
    const spaceId = await emptySpace(admin, orgId, 'Files');
    const files = ['a', 'b', 'c'].map((n) => ({ name: `${n}.png`, ref: n, contentType: 'image/png', base64: PNG_BASE64 }));
    let write;
    try {
      write = await writer.apply(owner.id, spaceId, [
        { operation: 'insert_files', files },
        { operation: 'insert_page', title: 'Uses a', document: { markdown: '![A logo](./a)' } },
      ]);
    } catch (err) {
      if ((err as { kind?: string }).kind !== 'unavailable') throw err;
      console.warn('file storage is not wired (insert_files: unavailable): the file reads are not tested');
      return;
    }
    const [user] = pageIdsOf(write);
    expect(write.insertedFiles.map((f: Json) => f.name)).toEqual(['a.png', 'b.png', 'c.png']);
    const base = `/v1/spaces/${spaceId}/content/files`;
    const all = await read(admin, base, OLD, `${S}/content/files`);
    expect(all.count).toBe(3);
    expect(all.items.map((f: Json) => f.name).sort()).toEqual(['a.png', 'b.png', 'c.png']);
    for (const f of all.items) {
      expect(f).toMatchObject({ contentType: 'image/png', size: Buffer.from(PNG_BASE64, 'base64').length });
      expect(f.downloadURL).toMatch(/^https?:\/\//);
    }
    // limit=1: one file per page, each once; limit=0 is the default size.
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const body = await read(admin, `${base}?limit=1${page ? `&page=${encodeURIComponent(page)}` : ''}`, OLD, `${S}/content/files`);
      expect(body.items).toHaveLength(1);
      seen.push(body.items[0].id);
      page = body.next?.page;
    } while (page);
    expect(seen).toEqual(all.items.map((f: Json) => f.id));
    expect((await read(admin, `${base}?limit=0`, OLD, `${S}/content/files`)).items).toHaveLength(3);

    const a = all.items.find((f: Json) => f.name === 'a.png');
    const one = await read(admin, `${base}/${a.id}`, OLD, `${S}/content/files/{fileId}`);
    expect(one).toMatchObject({ id: a.id, name: 'a.png', contentType: 'image/png', dimensions: { width: 1, height: 1 } });
    // The download URL is signed: no token needed, the bytes come back as stored.
    const download = await fetch(one.downloadURL);
    expect([download.status, download.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(PNG_BASE64, 'base64'))).toBe(true);
    const backlinks = await read(admin, `${base}/${a.id}/backlinks`, OLD, `${S}/content/files/{fileId}/backlinks`);
    expect(backlinks.items).toEqual([expect.objectContaining({ kind: 'page', page: expect.objectContaining({ id: user }), space: expect.objectContaining({ id: spaceId }) })]);
    const b = all.items.find((f: Json) => f.name === 'b.png');
    expect((await read(admin, `${base}/${b.id}/backlinks`, OLD, `${S}/content/files/{fileId}/backlinks`)).items).toEqual([]);
    // A later page uses b by its id.
    await writer.apply(owner.id, spaceId, [{ operation: 'insert_page', title: 'Uses b', document: { markdown: `![B](/files/${b.id})` } }]);
    expect((await read(admin, `${base}/${b.id}/backlinks`, OLD, `${S}/content/files/{fileId}/backlinks`)).items.map((l: Json) => l.page.title)).toEqual(['Uses b']);

    // The revision lists them too, and the history reads serve them.
    const R = `${S}/revisions/{revisionId}`;
    const rev = `/v1/spaces/${spaceId}/revisions/${write.revisionId}`;
    expect((await read(admin, rev, NEW, R)).files.map((f: Json) => f.id)).toEqual(all.items.map((f: Json) => f.id));
    expect((await read(admin, `${rev}/files?limit=2`, NEW, `${R}/files`)).items).toHaveLength(2);
    expect((await read(admin, `${rev}/files/${a.id}`, NEW, `${R}/files/{fileId}`)).name).toBe('a.png');

    // The official client.
    expect((await api.spaces.listFiles(spaceId)).data.count).toBe(3);
    expect((await api.spaces.getFileById(spaceId, a.id)).data).toMatchObject({ id: a.id, name: 'a.png' });
  });

  it('refuses bad input with 400 and an error body, and changes nothing', async () => {
    const { spaceId, revisionId, pages } = seed;
    const c = `/v1/spaces/${spaceId}/content`;
    const bad = [
      `${c}/page/${pages.intro}?format=pdf`,
      `${c}/path/intro?format=pdf`,
      `/v1/spaces/${spaceId}/links?status=bogus`,
      `${c}/page/${pages.links}/links?status=bogus`,
      `${c}/files?limit=-1`,
      `${c}/files?limit=1001`,
      `${c}/files?limit=many`,
      `${c}/files?page=garbage`,
      `/v1/spaces/${spaceId}/links?page=%25%25%25`,
      `${c}?metadata=perhaps`,
    ];
    for (const path of bad) {
      const res = await admin.get(path);
      expect([path, res.status]).toEqual([path, 400]);
      assertErrorBody(400, res.body);
    }
    expect((await read(admin, c, OLD, `${S}/content`)).id).toBe(revisionId);
  });

  it('answers 404 for a page, a file, a path or a revision that is not there, and for a revision of another space', async () => {
    const { spaceId, pages } = seed;
    const other = await emptySpace(admin, orgId, 'Other');
    const otherWrite = await writer.apply(owner.id, other, [{ operation: 'insert_page', title: 'Elsewhere', document: {} }]);
    const c = `/v1/spaces/${spaceId}/content`;
    const r = (rev: string) => `/v1/spaces/${spaceId}/revisions/${rev}`;
    const missing = [
      `${c}/page/${unknownId()}`,
      `${c}/page/${unknownId()}/links`,
      `${c}/files/${unknownId()}`,
      `${c}/files/${unknownId()}/backlinks`,
      `${c}/path/no-such-page`,
      r(unknownId()),
      `${r(unknownId())}/pages`,
      `${r(unknownId())}/page/${pages.intro}`,
      r(otherWrite.revisionId),
      `${r(otherWrite.revisionId)}/pages`,
      `${r(otherWrite.revisionId)}/files`,
      `${r(otherWrite.revisionId)}/page/${pageIdsOf(otherWrite)[0]}`,
      `${r(otherWrite.revisionId)}/path/elsewhere`,
      `/v1/spaces/${unknownId()}/content`,
      `/v1/spaces/${unknownId()}/links`,
    ];
    for (const path of missing) {
      const res = await admin.get(path);
      expect([path, res.status]).toEqual([path, 404]);
      assertErrorBody(404, res.body);
    }
    // The other space's page is not in this space's current revision either.
    expect((await admin.get(`${c}/page/${pageIdsOf(otherWrite)[0]}`)).status).toBe(404);
    // A deleted space's content and history are gone with it (until restored).
    expect((await admin.delete(`/v1/spaces/${other}`)).status).toBe(205);
    for (const path of [`/v1/spaces/${other}/content`, `/v1/spaces/${other}/revisions/${otherWrite.revisionId}`, `/v1/spaces/${other}/links`]) {
      const res = await admin.get(path);
      expect([path, res.status, res.body]).toEqual([path, 404, (await admin.get(`/v1/spaces/${unknownId()}/content`)).body]);
    }
    expect((await admin.post(`/v1/spaces/${other}/restore`)).status).toBe(200);
    expect((await read(admin, `/v1/spaces/${other}/revisions/${otherWrite.revisionId}`, NEW, `${S}/revisions/{revisionId}`)).pages).toHaveLength(1);
    await expect(api.spaces.getPageById(spaceId, unknownId())).rejects.toMatchObject({ code: 404 });
  });
});
