import { GitBookAPI } from '@gitbook/api';
import { connectMongo, Db } from '@bindery/platform/mongo';
import { RunRecord, RUNS_COLLECTION } from '@bindery/platform/runs';
import { assertErrorBody, assertMatchesSpec, envPrefix, sharedOutboundSystem, SystemUnderTest, waitForRun } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { contentWriter } from './content-writer';
import { flatPages, Json } from './content-model-fixtures';
import { createOrganization, createUser, TestUser } from './fixtures';
import { Client, http } from './http-client';
import { startTestGitServer, TestGitServer } from './git-server-fixtures';

const PASSWORD = 'pw-Zq81xkVb0-never-shown';
const OPTIONS_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="2" height="1"/>\n';
const USER = 'writer';

/** A small repository in GitBook's layout: a readme, a page with sub-pages as dir/README.md, a group, front matter. */
const GITBOOK_REPO: Record<string, string> = {
  '.gitbook.yaml': 'root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n',
  'SUMMARY.md':
    '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n  * [Configure](guide/configure.md)\n\n## Reference\n\n* [API](reference/api.md)\n',
  'README.md': '# Welcome\n\nHello from the repository.\n\n![The logo](.gitbook/assets/logo.svg)\n',
  '.gitbook/assets/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>\n',
  'guide/README.md': '---\ndescription: How to use the product\n---\n\n# Guide\n\nStart here.\n',
  'guide/install.md': '# Install\n\nRun the installer, then [configure it](configure.md).\n',
  'guide/configure.md': '# Configure\n\nSet the options.\n',
  'reference/api.md': '# API\n\nThe endpoints.\n',
};

describe('git sync runs against a git server on loopback (git http-backend, basic auth)', () => {
  let sut: SystemUnderTest;
  let git: TestGitServer;
  let owner: TestUser;
  let orgId: string;
  let admin: Client;
  let api: GitBookAPI;
  let mongo: { db: Db; close(): Promise<void> };

  beforeAll(async () => {
    git = await startTestGitServer({ auth: { user: USER, password: PASSWORD } });
    sut = await sharedOutboundSystem();
    owner = await createUser(sut, 'git-owner');
    orgId = await createOrganization(sut, owner, 'Git sync');
    admin = http(sut.baseUrl, owner.token);
    api = new GitBookAPI({ endpoint: sut.baseUrl, authToken: owner.token });
    mongo = await connectMongo(sut.env.MONGODB_URL, sut.env[`${envPrefix('git-sync')}_DB`], 'tests');
  }, 180_000);
  afterAll(async () => {
    await mongo?.close();
    await git?.close();
  });

  /** The newest run of the space, once finished. */
  async function lastRun(spaceId: string, kind: 'import' | 'export'): Promise<RunRecord> {
    const run = await mongo.db
      .collection<RunRecord>(RUNS_COLLECTION)
      .find({ 'input.spaceId': spaceId, kind: `git-sync.${kind}` })
      .sort({ createdAt: -1 })
      .limit(1)
      .next();
    if (!run) throw new Error(`no ${kind} run for ${spaceId}`);
    return waitForRun(mongo.db, run._id, ['completed', 'failed', 'cancelled'], 60_000);
  }

  async function importNow(spaceId: string, repo: string, extra: Json = {}): Promise<RunRecord> {
    const res = await api.spaces.importGitRepository(spaceId, { url: git.url(repo), ref: 'refs/heads/main', ...extra });
    expect(res.status).toBe(204);
    return lastRun(spaceId, 'import');
  }

  async function exportNow(spaceId: string, repo: string, commitMessage: string, extra: Json = {}): Promise<RunRecord> {
    const res = await api.spaces.exportToGitRepository(spaceId, { url: git.url(repo), ref: 'refs/heads/main', commitMessage, ...extra });
    expect(res.status).toBe(204);
    return lastRun(spaceId, 'export');
  }

  async function pagesOf(spaceId: string) {
    const res = await admin.get(`/v1/spaces/${spaceId}/content`);
    expect(res.status).toBe(200);
    return res.body;
  }

  const titles = (pages: Json[]): unknown[] => pages.map((p) => (p.pages && (p.pages as Json[]).length ? [p.title, titles(p.pages as Json[])] : p.title));

  test('import → pages; same commit again → nothing new; one-page edit → a one-file commit; export then import → no-op; a moved remote fails the export unless force', async () => {
    git.createRepository('docs');
    const first = git.commit('docs', GITBOOK_REPO, 'Initial docs');
    const spaceId = (await createSpace(admin, orgId, { title: 'Synced' })).id as string;

    // import
    const empty = (await pagesOf(spaceId)).id;
    const run = await importNow(spaceId, 'docs');
    expect([run.status, run.reason]).toEqual(['completed', undefined]);
    const content = await pagesOf(spaceId);
    expect(titles(content.pages)).toEqual(['Welcome', ['Guide', ['Install', 'Configure']], ['Reference', ['API']]]);
    expect(content.pages[2].type).toBe('group');
    // one revision on the one before, recording the commit
    const written = content;
    expect(written.parents).toEqual([empty]);
    expect(written.git).toMatchObject({ oid: first, message: 'Initial docs' });
    // the relative link became a page reference, the asset a file of the space
    const installPage = flatPages(content.pages).find((p) => p.title === 'Install')!;
    const configurePage = flatPages(content.pages).find((p) => p.title === 'Configure')!;
    const installDoc = (await admin.get(`/v1/spaces/${spaceId}/content/page/${installPage.id}`)).body;
    expect(JSON.stringify(installDoc.document)).toContain(JSON.stringify({ kind: 'page', page: configurePage.id }));
    const files = (await admin.get(`/v1/spaces/${spaceId}/content/files`)).body.items as Json[];
    expect(files.map((f) => f.name)).toEqual(['logo.svg']);
    const guide = flatPages(content.pages).find((p) => p.title === 'Guide')!;
    expect(guide.description).toBe('How to use the product');
    const info = await api.spaces.getSpaceGitInfo(spaceId);
    expect(info.status).toBe(200);
    assertMatchesSpec('0.130.0', 'get', '/spaces/{spaceId}/git/info', 200, info.data);
    expect(info.data).toEqual({ repoName: 'docs', url: git.url('docs', false), updatedAt: expect.any(String) });
    // the credentials reached git as a header, and only there
    expect(git.requests.filter((r) => r.status === 200).length).toBeGreaterThan(0);
    expect(git.requests.every((r) => r.authorization === `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`)).toBe(true);

    // the same commit again: no new revision
    const revision = content.id;
    const again = await importNow(spaceId, 'docs');
    expect([again.status, again.result]).toEqual(['completed', expect.objectContaining({ commit: first, changed: false })]);
    expect((await pagesOf(spaceId)).id).toBe(revision);

    // export right after import: nothing changed, no commit
    const unchanged = await exportNow(spaceId, 'docs', 'Nothing to say');
    expect([unchanged.status, unchanged.reason]).toEqual(['completed', undefined]);
    expect(git.head('docs') === first ? [] : git.changedFiles('docs', git.head('docs')!)).toEqual([]);
    expect(git.commitCount('docs')).toBe(1);

    // one page edited → one commit changing one file, pushed
    const install = flatPages((await pagesOf(spaceId)).pages).find((p) => p.title === 'Install')!;
    const writer = contentWriter(sut);
    try {
      await writer.apply(owner.id, spaceId, [
        { operation: 'update_page', page: install.id, document: { markdown: '# Install\n\nRun the new installer, then [configure it](configure.md).\n' } },
      ]);
    } finally {
      writer.close();
    }
    const exported = await exportNow(spaceId, 'docs', 'Edit the install page');
    expect([exported.status, exported.reason]).toEqual(['completed', undefined]);
    expect(git.commitCount('docs')).toBe(2);
    const pushed = git.head('docs')!;
    expect(git.changedFiles('docs', pushed)).toEqual(['guide/install.md']);
    expect(git.filesAt('docs', pushed)['guide/install.md']).toContain('Run the new installer, then [configure it](configure.md).');

    // import of the commit just exported: a no-op
    const before = (await pagesOf(spaceId)).id;
    const back = await importNow(spaceId, 'docs');
    expect([back.status, back.result]).toEqual(['completed', expect.objectContaining({ commit: pushed, changed: false })]);
    expect((await pagesOf(spaceId)).id).toBe(before);

    // the remote moves on: the export fails with a reason and overwrites nothing; with force it goes through
    const moved = git.commit('docs', { 'guide/configure.md': '# Configure\n\nChanged in the repository.\n' }, 'Edit in Git');
    const refused = await exportNow(spaceId, 'docs', 'Would overwrite');
    expect(refused.status).toBe('failed');
    expect(refused.reason).toMatch(/moved on/);
    expect(git.head('docs')).toBe(moved);
    const forced = await exportNow(spaceId, 'docs', 'Overwrite', { force: true });
    expect([forced.status, forced.reason]).toEqual(['completed', undefined]);
    expect(git.head('docs')).not.toBe(moved);

    // a page gains a sub-page: its file moves to <dir>/README.md, and no orphan is left beside it
    const configure = flatPages((await pagesOf(spaceId)).pages).find((p) => p.title === 'Configure')!;
    const writer2 = contentWriter(sut);
    try {
      await writer2.apply(owner.id, spaceId, [
        { operation: 'insert_files', files: [{ name: 'options.svg', ref: 'shot', contentType: 'image/svg+xml', base64: Buffer.from(OPTIONS_SVG).toString('base64') }] },
        { operation: 'insert_page', into: configure.id, title: 'Options', document: { markdown: '# Options\n\nEvery option.\n\n![The options](shot)\n' } },
      ]);
    } finally {
      writer2.close();
    }
    const grown = await exportNow(spaceId, 'docs', 'Options get their own page');
    expect([grown.status, grown.reason]).toEqual(['completed', undefined]);
    const tree = git.filesAt('docs', git.head('docs')!);
    // the new image is written once under .gitbook/assets and the page points at it relatively
    expect(git.changedFiles('docs', git.head('docs')!).sort()).toEqual([
      '.gitbook/assets/options.svg',
      'SUMMARY.md',
      'guide/configure.md',
      'guide/configure/README.md',
      'guide/configure/options.md',
    ]);
    expect(tree['.gitbook/assets/options.svg']).toBe(OPTIONS_SVG);
    expect(tree['guide/configure/options.md']).toContain('../../.gitbook/assets/options.svg');
    expect(tree['guide/configure.md']).toBeUndefined();
    expect(tree['SUMMARY.md']).toContain('[Options](guide/configure/options.md)');
  }, 240_000);

  test('credentials in the URL: 0 occurrences in git/info, the runs, error answers and the apps output', async () => {
    git.createRepository('secret');
    git.commit('secret', GITBOOK_REPO, 'Initial');
    const spaceId = (await createSpace(admin, orgId, { title: 'Secret' })).id as string;
    const run = await importNow(spaceId, 'secret');
    expect(run.status).toBe('completed');
    // a wrong password: the run fails with a reason that does not repeat it
    const wrong = `http://${USER}:${PASSWORD}x@127.0.0.1:${new URL(git.origin).port}/secret.git`;
    expect((await admin.post(`/v1/spaces/${spaceId}/git/import`, { url: wrong, ref: 'refs/heads/main', force: true })).status).toBe(204);
    const failed = await lastRun(spaceId, 'import');
    expect(failed.status).toBe('failed');
    // refused requests: their error answers
    const refusals = [
      await admin.post(`/v1/spaces/${spaceId}/git/import`, { url: `ssh://${USER}:${PASSWORD}@127.0.0.1/x.git`, ref: 'refs/heads/main' }),
      await admin.post(`/v1/spaces/${spaceId}/git/import`, { url: `${git.url('secret')}?a=1`, ref: 'refs/heads/main' }),
      await admin.post(`/v1/spaces/${spaceId}/git/export`, { url: git.url('secret'), ref: 'main', commitMessage: 'x' }),
    ];
    for (const r of refusals) {
      expect(r.status).toBe(400);
      assertErrorBody(400, r.body);
    }
    const info = await admin.get(`/v1/spaces/${spaceId}/git/info`);
    const runs = await mongo.db.collection(RUNS_COLLECTION).find({}).toArray();
    const syncs = await mongo.db.collection('syncs').find({}).toArray();
    const leftover = await mongo.db.collection('run_credentials').countDocuments();
    const haystacks: Record<string, string> = {
      'git/info': JSON.stringify(info.body),
      runs: JSON.stringify(runs),
      syncs: JSON.stringify(syncs),
      errors: JSON.stringify(refusals.map((r) => r.body)),
      ...Object.fromEntries(Object.entries(sut.apps).map(([name, app]) => [`${name} output`, app.output.join('\n')])),
    };
    const basic = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');
    const found = Object.entries(haystacks).filter(([, text]) => text.includes(PASSWORD) || text.includes(basic) || text.includes(encodeURIComponent(PASSWORD)));
    expect(found.map(([where]) => where)).toEqual([]);
    expect(leftover).toBe(0);
    // the runs' records do hold the URL, without its credentials
    expect(runs.filter((r) => r.input.spaceId === spaceId).map((r) => r.input.url)).toEqual([git.url('secret', false), git.url('secret', false)]);
  }, 120_000);
});
