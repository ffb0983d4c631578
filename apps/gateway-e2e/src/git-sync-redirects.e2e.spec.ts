import { assertMatchesSpec, eventually, sharedOutboundSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { flatPages, Json } from './content-model-fixtures';
import { createOrganization, createUser, TestUser } from './fixtures';
import { gitSyncRuns } from './git-sync-run-fixtures';
import { startTestGitServer, TestGitServer } from './git-server-fixtures';
import { Client, http } from './http-client';
import { createPublishedSite, CreatedSite } from './site-fixtures';

const BY_SOURCE = '/orgs/{organizationId}/sites/{siteId}/redirect';

/** A GitBook-layout repository whose .gitbook.yaml has redirects: to a page, a page's anchor, a URL, and one to nothing. */
const repository = (redirects: string): Record<string, string> => ({
  '.gitbook.yaml': `root: ./\n\nredirects:\n${redirects}`,
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n',
  'README.md': '# Welcome\n\nHello.\n',
  'guide/README.md': '# Guide\n\nStart here.\n',
  'guide/install.md': '# Install\n\nRun the installer.\n\n## Linux\n\nOn Linux too.\n',
});

async function read(url: string): Promise<{ status: number; location: string | null }> {
  const res = await fetch(url, { redirect: 'manual' });
  await res.arrayBuffer();
  return { status: res.status, location: res.headers.get('location') };
}

/**
 * `.gitbook.yaml` redirects on the real system: a repository imported through Git sync into a space
 * that a published site serves; sites hears the import's completed-sync event, and both the
 * redirect lookup of the API and the reader send the old path to the page's published URL.
 */
describe('git sync redirects reach the published site (real system, git http-backend on loopback)', () => {
  let sut: SystemUnderTest;
  let git: TestGitServer;
  let owner: TestUser;
  let admin: Client;
  let orgId: string;
  let runs: Awaited<ReturnType<typeof gitSyncRuns>>;

  beforeAll(async () => {
    git = await startTestGitServer();
    sut = await sharedOutboundSystem();
    owner = await createUser(sut, 'redirects-owner');
    admin = http(sut.baseUrl, owner.token);
    orgId = await createOrganization(sut, owner, 'Git redirects');
    runs = await gitSyncRuns(sut);
  }, 240_000);
  afterAll(async () => {
    await runs?.close();
    await git?.close();
  });

  const lookup = (site: CreatedSite, source: string) => admin.get(`/v1/orgs/${orgId}/sites/${site.id}/redirect?source=${encodeURIComponent(source)}`);
  const targetOf = async (site: CreatedSite, source: string) => {
    const res = await lookup(site, source);
    return res.status === 200 ? (res.body.target as string) : res.status;
  };
  async function importCommit(spaceId: string) {
    const { status, run } = await runs.start(admin, spaceId, 'import', { url: git.url('docs') });
    expect(status).toBe(204);
    expect([run?.status, run?.reason]).toEqual(['completed', undefined]);
    return run!;
  }

  test('the lookup and the reader send an old path to the page imported from its target; a re-import replaces them, a hand-written redirect stays', async () => {
    git.createRepository('docs');
    git.commit('docs', repository('  old/install: guide/install.md\n  setup/linux: ./guide/install.md#linux\n  blog: https://blog.example.com/post\n  gone: missing.md\n'), 'Docs');
    const spaceId = (await createSpace(admin, orgId, { title: 'Handbook' })).id as string;
    const site = await createPublishedSite(admin, orgId, [spaceId], 'public');
    expect((await admin.post(`/v1/orgs/${orgId}/sites/${site.id}/redirects`, { source: '/kept', destination: { kind: 'external', url: 'https://example.com/kept' } })).status).toBe(
      201,
    );
    expect(await targetOf(site, '/old/install')).toBe(404);

    const run = await importCommit(spaceId);
    expect(run.result).toMatchObject({ redirects: 3, redirectsLeftOut: ['gone'] });
    const pages = flatPages(((await admin.get(`/v1/spaces/${spaceId}/content`)).body as Json).pages as Json[]);
    const install = pages.find((p) => p.title === 'Install')!;
    const installUrl = `${site.url}/${install.path}`;

    // sites applies the import's event: the lookup answers the page's published URL, in the official shape
    await eventually(async () => expect(await targetOf(site, '/old/install')).toBe(installUrl), 30_000);
    const found = await lookup(site, '/old/install');
    assertMatchesSpec('0.202.0', 'get', BY_SOURCE, 200, found.body);
    expect(found.body.redirect).toMatchObject({ object: 'site-redirect', source: '/old/install', permanent: true, destination: { kind: 'site-page', pageId: install.id } });
    expect(await targetOf(site, '/setup/linux')).toBe(`${installUrl}#linux`);
    expect(await targetOf(site, '/blog')).toBe('https://blog.example.com/post');
    expect(await targetOf(site, '/gone')).toBe(404);
    // the site's own list holds only its hand-written redirect
    expect(((await admin.get(`/v1/orgs/${orgId}/sites/${site.id}/redirects`)).body.items as Json[]).map((r) => r.source)).toEqual(['/kept']);

    // the reader answers the old path with the page's URL; the page itself is served
    await eventually(async () => expect(await read(`${site.url}/old/install`)).toEqual({ status: 302, location: installUrl }), 15_000);
    expect(await read(`${site.url}/setup/linux`)).toEqual({ status: 302, location: `${installUrl}#linux` });
    expect((await read(installUrl)).status).toBe(200);

    // a site made after the import publishes the space's Git redirects at once
    const later = await createPublishedSite(admin, orgId, [spaceId], 'public');
    expect(await targetOf(later, '/old/install')).toBe(`${later.url}/${install.path}`);

    // a re-import replaces the space's Git redirects; the hand-written one stays
    git.commit('docs', repository('  moved/install: guide/install.md\n'), 'Redirects changed');
    await importCommit(spaceId);
    await eventually(async () => expect(await targetOf(site, '/moved/install')).toBe(installUrl), 30_000);
    expect(await targetOf(site, '/old/install')).toBe(404);
    expect(await targetOf(later, '/moved/install')).toBe(`${later.url}/${install.path}`);
    expect(await targetOf(site, '/kept')).toBe('https://example.com/kept');
    await eventually(async () => expect((await read(`${site.url}/old/install`)).status).toBe(404), 15_000);
  }, 180_000);
});
