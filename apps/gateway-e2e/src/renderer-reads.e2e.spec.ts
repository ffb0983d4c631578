import { assertErrorBody, assertMatchesSpec, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace, unknownId } from './content-fixtures';
import { Json } from './content-model-fixtures';
import { openChangeRequest } from './change-request-fixtures';
import { createOrganization, createUser, TestUser } from './fixtures';
import { Client, http } from './http-client';
import { seedReusableContents, SeededReusableContents } from './reusable-content-fixtures';
import { createPublishedSite, siteToken } from './site-fixtures';

const DOCUMENT = '/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/document';
const META_LINKS = {
  content: '/spaces/{spaceId}/content/page/{pageId}/meta-links',
  revision: '/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/meta-links',
  changeRequest: '/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/meta-links',
};

/** Every block type of a document, depth first. */
const blockTypes = (nodes: Json[]): string[] => nodes.flatMap((n) => (n.object === 'block' ? [n.type as string, ...blockTypes((n.nodes as Json[]) ?? [])] : []));

/**
 * The reads GitBook's renderer makes of a page once it holds a site token (0.202.0): the page's
 * document, evaluated where deterministic and with its reusable contents dereferenced, and its meta
 * links. Each answer is checked against 0.202.0; members read the same.
 */
describe("GitBook renderer's page reads over HTTP (0.202.0)", () => {
  let sut: SystemUnderTest;
  let owner: TestUser;
  let admin: Client;
  let renderer: Client;
  let spaceId: string;
  let seeded: SeededReusableContents;

  beforeAll(async () => {
    sut = await sharedSystem();
    owner = await createUser(sut, 'renderer-owner');
    const orgId = await createOrganization(sut, owner, 'Renderer');
    admin = http(sut.baseUrl, owner.token);
    spaceId = (await createSpace(admin, orgId, { title: 'Renderer' })).id as string;
    seeded = await seedReusableContents(sut, owner.id, spaceId);
    const site = await createPublishedSite(admin, orgId, [spaceId], 'public');
    // the renderer resolves the site's URL anonymously-or-not and reads with the token it is given
    renderer = http(sut.baseUrl, await siteToken(admin, site));
  }, 180_000);

  const R = () => `/v1/spaces/${spaceId}/revisions/${seeded.revisionId}`;
  const official = (specPath: string, res: { status: number; body: Json }) => {
    expect(res.status).toBe(200);
    assertMatchesSpec('0.202.0', 'get', specPath, 200, res.body);
    return res.body;
  };

  test("a site token reads the page's document as the renderer asks: reusable contents inlined, the official JSONDocument", async () => {
    const asked = official(DOCUMENT, await renderer.get(`${R()}/page/${seeded.pageId}/document?evaluated=deterministic-only&dereferenced=reusable-contents`));
    expect(blockTypes(asked.nodes as Json[])).not.toContain('reusable-content');
    const text = JSON.stringify(asked);
    expect(text).toContain('beta');
    expect(text).toContain('Write to support.');
    // as stored: the blocks name the reusable contents
    const stored = official(DOCUMENT, await renderer.get(`${R()}/page/${seeded.pageId}/document`));
    expect((stored.nodes as Json[]).map((n) => (n.data as Json)?.ref)).toEqual([
      { kind: 'reusable-content', reusableContent: seeded.beta },
      { kind: 'reusable-content', reusableContent: seeded.support },
    ]);
    // `true` dereferences too; `evaluated` changes nothing (no expression here has a deterministic value)
    expect(official(DOCUMENT, await renderer.get(`${R()}/page/${seeded.pageId}/document?dereferenced=true&evaluated=true`))).toEqual(asked);
    expect(official(DOCUMENT, await admin.get(`${R()}/page/${seeded.pageId}/document?dereferenced=reusable-contents`))).toEqual(asked);
  });

  test('meta links of the current revision, a revision by id and a change request: none named, 0.202.0 shapes', async () => {
    expect(official(META_LINKS.content, await renderer.get(`/v1/spaces/${spaceId}/content/page/${seeded.pageId}/meta-links`))).toEqual({ alternates: [] });
    expect(official(META_LINKS.revision, await renderer.get(`${R()}/page/${seeded.pageId}/meta-links`))).toEqual({ alternates: [] });
    const cr = await openChangeRequest(admin, spaceId, 'Meta links');
    expect(official(META_LINKS.changeRequest, await admin.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${seeded.pageId}/meta-links`))).toEqual({
      alternates: [],
    });
    // change requests are not a site token's to read
    expect((await renderer.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${seeded.pageId}/meta-links`)).status).toBe(403);
  });

  test("the renderer's other parameters: metadata=true, format=markdown with stable refs, dereferenced page reads", async () => {
    const pages = await renderer.get(`/v1/spaces/${spaceId}/content/pages?metadata=true`);
    expect(pages.status).toBe(200);
    assertMatchesSpec('0.202.0', 'get', '/spaces/{spaceId}/content/pages', 200, pages.body);
    const withGit = await admin.get(`/v1/spaces/${spaceId}/content?metadata=true`);
    expect(withGit.body.git).toMatchObject({ oid: 'b'.repeat(40) });
    expect((await admin.get(`/v1/spaces/${spaceId}/content?metadata=false`)).body.git).toBeUndefined();
    const markdown = await renderer.get(`/v1/spaces/${spaceId}/content/page/${seeded.pageId}?format=markdown&format.markdown.refs=stable`);
    expect(markdown.status).toBe(200);
    assertMatchesSpec('0.202.0', 'get', '/spaces/{spaceId}/content/page/{pageId}', 200, markdown.body);
    expect(markdown.body.markdown).toContain(`{% include "/reusable-content/${seeded.beta}" %}`);
    // a page read takes dereferenced too
    const inlined = await renderer.get(`/v1/spaces/${spaceId}/content/page/${seeded.pageId}?dereferenced=reusable-contents&evaluated=deterministic-only`);
    expect(inlined.status).toBe(200);
    assertMatchesSpec('0.202.0', 'get', '/spaces/{spaceId}/content/page/{pageId}', 200, inlined.body);
    expect(blockTypes(inlined.body.document.nodes as Json[])).not.toContain('reusable-content');
    expect(JSON.stringify(inlined.body.document)).toContain('Write to support.');
  });

  test('unknown pages and revisions: 404 like any read; values 0.202.0 does not define: 400', async () => {
    for (const path of [
      `${R()}/page/${unknownId()}/document`,
      `/v1/spaces/${spaceId}/revisions/${unknownId()}/page/${seeded.pageId}/document`,
      `${R()}/page/${unknownId()}/meta-links`,
      `/v1/spaces/${spaceId}/content/page/${unknownId()}/meta-links`,
    ]) {
      const res = await renderer.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      assertErrorBody(404, res.body);
    }
    for (const query of ['dereferenced=pages', 'evaluated=maybe', 'format=markdown']) {
      const res = await renderer.get(`${R()}/page/${seeded.pageId}/document?${query}`);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      assertErrorBody(400, res.body);
    }
  });
});
