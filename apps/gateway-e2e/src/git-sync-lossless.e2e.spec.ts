import { GitBookAPI } from '@gitbook/api';
import { sharedOutboundSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { contentWriter } from './content-writer';
import { flatPages, Json } from './content-model-fixtures';
import { createOrganization, createUser, TestUser } from './fixtures';
import { Client, http } from './http-client';
import { startTestGitServer, TestGitServer } from './git-server-fixtures';
import { gitSyncRuns } from './git-sync-run-fixtures';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** The first page as GitBook writes it: cover, layout, a key of another tool, HTML and `*` bullets the printer would write otherwise. */
const README = `---
description: >-
  Everything about the product, in one place.
cover: .gitbook/assets/cover.png
coverY: 0
layout:
  width: wide
  cover:
    visible: true
    size: full
  title:
    visible: true
  description:
    visible: false
  tableOfContents:
    visible: true
  outline:
    visible: false
  pagination:
    visible: true
custom-tool: keep me
---

# Welcome

<h3 align="center">Getting started</h3>

* First item
* Second item

Last paragraph.
`;

/** Forms GitBook writes that a first version of the sync lost: link pages, a dir/README.md without sub-pages, an anchored group heading. */
const REPO: Record<string, string | Buffer> = {
  '.gitbook.yaml': 'root: ./\n',
  'SUMMARY.md': [
    '# Summary',
    '',
    '* [Welcome](README.md)',
    '* [Install the CLI](integrations/reference/README.md)',
    '  * [Configure](integrations/configurations.md)',
    '  * [GitHub examples](https://github.com/example/examples)',
    '',
    '## Build <a href="#build" id="build"></a>',
    '',
    '* [API reference](api-reference/README.md)',
    '* [Status page](https://status.example.com/)',
    '',
  ].join('\n'),
  'README.md': README,
  'integrations/reference/README.md': '# Install the CLI\n\nRun it.\n',
  'integrations/configurations.md': '# Configure\n\nSet the options.\n\n![The diagram](../images/diagram.png)\n',
  // a media file beside the pages, named by one: imported like an asset; one nobody names: left alone
  'images/diagram.png': Buffer.concat([PNG, Buffer.from('diagram')]),
  'images/unused.png': Buffer.concat([PNG, Buffer.from('unused')]),
  'api-reference/README.md': `# API reference\n\n${Array.from({ length: 29 }, (_, i) => `Endpoint ${i + 1}.`).join('\n\n')}\n`,
  '.gitbook/assets/cover.png': PNG,
};

describe('git sync keeps what GitBook writes (link pages, slugs of file names, front matter, unchanged lines)', () => {
  let sut: SystemUnderTest;
  let git: TestGitServer;
  let owner: TestUser;
  let orgId: string;
  let admin: Client;
  let api: GitBookAPI;
  let runs: Awaited<ReturnType<typeof gitSyncRuns>>;

  beforeAll(async () => {
    git = await startTestGitServer();
    sut = await sharedOutboundSystem();
    owner = await createUser(sut, 'git-lossless');
    orgId = await createOrganization(sut, owner, 'Lossless');
    admin = http(sut.baseUrl, owner.token);
    api = new GitBookAPI({ endpoint: sut.baseUrl, authToken: owner.token });
    runs = await gitSyncRuns(sut);
  }, 180_000);
  afterAll(async () => {
    await runs?.close();
    await git?.close();
  });

  const lastRun = (spaceId: string, kind: 'import' | 'export') => runs.last(spaceId, kind);
  const importNow = async (spaceId: string, repo: string, extra: Json = {}) => {
    expect((await api.spaces.importGitRepository(spaceId, { url: git.url(repo), ref: 'refs/heads/main', ...extra })).status).toBe(204);
    return lastRun(spaceId, 'import');
  };
  const exportNow = async (spaceId: string, repo: string, commitMessage: string, extra: Json = {}) => {
    expect((await api.spaces.exportToGitRepository(spaceId, { url: git.url(repo), ref: 'refs/heads/main', commitMessage, ...extra })).status).toBe(204);
    return lastRun(spaceId, 'export');
  };
  const content = async (spaceId: string) => (await admin.get(`/v1/spaces/${spaceId}/content`)).body as Json;
  const shape = (pages: Json[]): unknown[] => pages.map((p) => [p.type, p.title, ...(p.type === 'link' ? [p.target.url] : [p.slug ?? null, shape(p.pages ?? [])])]);

  test('import: link pages, slugs of file names, SUMMARY.md titles, cover and layout; unchanged export: no commit; a sentence appended: one line; re-import: nothing new', async () => {
    git.createRepository('docs');
    const first = git.commit('docs', REPO, 'GitBook content');
    const spaceId = (await createSpace(admin, orgId, { title: 'Lossless' })).id as string;
    const run = await importNow(spaceId, 'docs');
    expect([run.status, run.reason]).toEqual(['completed', undefined]);

    const imported = await content(spaceId);
    const slugOfReadme = imported.pages[0].slug;
    expect(shape(imported.pages)).toEqual([
      ['document', 'Welcome', slugOfReadme, []],
      [
        'document',
        'Install the CLI',
        'reference',
        [
          ['document', 'Configure', 'configurations', []],
          ['link', 'GitHub examples', 'https://github.com/example/examples'],
        ],
      ],
      [
        'group',
        'Build',
        'build',
        [
          ['document', 'API reference', 'api-reference', []],
          ['link', 'Status page', 'https://status.example.com/'],
        ],
      ],
    ]);
    const welcome = imported.pages[0] as Json;
    const files = (await admin.get(`/v1/spaces/${spaceId}/content/files`)).body.items as Json[];
    expect(files.map((f) => f.name).sort()).toEqual(['cover.png', 'diagram.png']);
    expect(welcome.cover).toEqual({ ref: { kind: 'file', file: files.find((f) => f.name === 'cover.png')!.id }, yPos: 0 });
    const configure = flatPages(imported.pages).find((p) => p.title === 'Configure')!;
    const configureDoc = (await admin.get(`/v1/spaces/${spaceId}/content/page/${configure.id}`)).body;
    expect(JSON.stringify(configureDoc.document)).toContain(JSON.stringify({ kind: 'file', file: files.find((f) => f.name === 'diagram.png')!.id }));
    expect(welcome.layout).toMatchObject({ width: 'wide', cover: true, coverSize: 'full', title: true, description: false, outline: false, pagination: true });
    expect(welcome.description).toBe('Everything about the product, in one place.');

    // nothing changed: no commit, every file as it was (the dir/README.md without sub-pages included)
    const unchanged = await exportNow(spaceId, 'docs', 'Nothing changed');
    expect([unchanged.status, unchanged.reason]).toEqual(['completed', undefined]);
    expect(git.head('docs')).toBe(first);

    // one sentence appended to the first page: exactly that, nothing else of the file
    const markdown = (await admin.get(`/v1/spaces/${spaceId}/content/page/${welcome.id}?format=markdown`)).body.markdown as string;
    const writer = contentWriter(sut);
    try {
      await writer.apply(owner.id, spaceId, [{ operation: 'update_page', page: welcome.id, document: { markdown: `${markdown.replace(/\n*$/, '\n')}\nOne more sentence.\n` } }]);
    } finally {
      writer.close();
    }
    const edited = await exportNow(spaceId, 'docs', 'One more sentence');
    expect([edited.status, edited.reason]).toEqual(['completed', undefined]);
    const pushed = git.head('docs')!;
    expect(git.changedFiles('docs', pushed)).toEqual(['README.md']);
    expect(git.filesAt('docs', pushed)['README.md']).toBe(`${README}\nOne more sentence.\n`);
    expect(git.filesAt('docs', pushed)['SUMMARY.md']).toBe(REPO['SUMMARY.md']);

    // importing what was just exported: no new revision
    const before = (await content(spaceId)).id;
    const back = await importNow(spaceId, 'docs');
    expect([back.status, back.result]).toEqual(['completed', expect.objectContaining({ commit: pushed, changed: false })]);
    expect((await content(spaceId)).id).toBe(before);
  }, 240_000);

  test('an export is refused for a space whose last import failed, or that was never imported over a branch with commits, unless forced', async () => {
    git.createRepository('fails');
    git.commit('fails', REPO, 'GitBook content');
    const spaceId = (await createSpace(admin, orgId, { title: 'Refused' })).id as string;
    expect((await importNow(spaceId, 'fails')).status).toBe('completed');
    const head = git.commit('fails', { '.gitbook.yaml': 'root: [not: valid\n' }, 'A broken configuration');
    const failed = await importNow(spaceId, 'fails');
    expect(failed.status).toBe('failed');
    const refused = await exportNow(spaceId, 'fails', 'Would overwrite');
    expect(refused.status).toBe('failed');
    expect(refused.reason).toMatch(/last import of this space failed .*Import again, or export with force/);
    expect(git.head('fails')).toBe(head);

    // never imported, the branch holds commits
    const fresh = (await createSpace(admin, orgId, { title: 'Never imported' })).id as string;
    const never = await exportNow(fresh, 'fails', 'Would overwrite');
    expect([never.status, never.reason]).toEqual(['failed', expect.stringMatching(/never imported from this repository/)]);
    expect(git.head('fails')).toBe(head);

    // forced, it goes through
    const forced = await exportNow(spaceId, 'fails', 'Overwrite', { force: true });
    expect([forced.status, forced.reason]).toEqual(['completed', undefined]);
    expect(git.head('fails')).not.toBe(head);
    expect(flatPages((await content(spaceId)).pages).length).toBeGreaterThan(0);
  }, 240_000);
});
