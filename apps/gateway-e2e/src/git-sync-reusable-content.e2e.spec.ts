import { GitBookAPI } from '@gitbook/api';
import type { RunRecord } from '@bindery/platform/runs';
import { assertMatchesSpec, sharedOutboundSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { contentWriter } from './content-writer';
import { flatPages, Json } from './content-model-fixtures';
import { createOrganization, createUser, TestUser } from './fixtures';
import { Client, http } from './http-client';
import { startTestGitServer, TestGitServer } from './git-server-fixtures';
import { gitSyncRuns } from './git-sync-run-fixtures';

const BETA = '---\ntitle: Beta warning\n---\n\n{% hint style="warning" %}\nThis is in beta. See [Install](../../guide/install.md).\n{% endhint %}\n';
const SUPPORT = '# Support\n\nWrite to support.\n';
/** A repository with reusable contents, included from the root and from a folder. */
const REPO: Record<string, string> = {
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n',
  'README.md': '# Welcome\n\nHello.\n\n{% include ".gitbook/includes/beta.md" %}\n',
  'guide/README.md': '# Guide\n\nStart here.\n',
  'guide/install.md': '# Install\n\nFirst:\n\n{% include "../.gitbook/includes/beta.md" %}\n\n{% include "../.gitbook/includes/support.md" %}\n\nThen run it.\n',
  '.gitbook/includes/beta.md': BETA,
  '.gitbook/includes/support.md': SUPPORT,
};

describe('git sync of reusable contents (.gitbook/includes) against a git server on loopback', () => {
  let sut: SystemUnderTest;
  let git: TestGitServer;
  let owner: TestUser;
  let orgId: string;
  let admin: Client;
  let api: GitBookAPI;
  let runs: Awaited<ReturnType<typeof gitSyncRuns>>;

  beforeAll(async () => {
    git = await startTestGitServer({});
    sut = await sharedOutboundSystem();
    owner = await createUser(sut, 'includes-owner');
    orgId = await createOrganization(sut, owner, 'Includes');
    admin = http(sut.baseUrl, owner.token);
    api = new GitBookAPI({ endpoint: sut.baseUrl, authToken: owner.token });
    runs = await gitSyncRuns(sut);
  }, 180_000);
  afterAll(async () => {
    await runs?.close();
    await git?.close();
  });

  const lastRun = (spaceId: string, kind: 'import' | 'export') => runs.last(spaceId, kind);
  async function sync(spaceId: string, repo: string, kind: 'import' | 'export'): Promise<RunRecord> {
    const res =
      kind === 'import'
        ? await api.spaces.importGitRepository(spaceId, { url: git.url(repo), ref: 'refs/heads/main' })
        : await api.spaces.exportToGitRepository(spaceId, { url: git.url(repo), ref: 'refs/heads/main', commitMessage: 'Sync' });
    expect(res.status).toBe(204);
    const run = await lastRun(spaceId, kind);
    expect([run.status, run.reason]).toEqual(['completed', undefined]);
    return run;
  }
  const revision = async (spaceId: string) => {
    const res = await admin.get(`/v1/spaces/${spaceId}/content`);
    expect(res.status).toBe(200);
    return res.body as Json;
  };
  const includesOf = (doc: Json): string[] =>
    (doc.nodes as Json[]).flatMap((n) => (n.type === 'reusable-content' ? [n.data.ref.reusableContent] : n.nodes ? includesOf({ nodes: n.nodes }) : []));

  test('import → reusable contents and include blocks; export unchanged → no commit; an edited page keeps its includes as relative paths; re-import keeps ids; a fresh repository gets the files', async () => {
    git.createRepository('inc');
    const first = git.commit('inc', REPO, 'Docs with includes');
    const spaceId = (await createSpace(admin, orgId, { title: 'Includes' })).id as string;
    await sync(spaceId, 'inc', 'import');

    const rev = await revision(spaceId);
    // (git metadata left out: the reference names its flag createdByService where the spec says createdByGitBook)
    assertMatchesSpec('0.130.0', 'get', '/spaces/{spaceId}/content', 200, (await admin.get(`/v1/spaces/${spaceId}/content?metadata=false`)).body);
    const blob = (path: string) => git.filesAt('inc', first)[path] !== undefined;
    expect(blob('.gitbook/includes/beta.md')).toBe(true);
    expect(rev.reusableContents.map((c: Json) => [c.title, c.git.path])).toEqual([
      ['Beta warning', '.gitbook/includes/beta.md'],
      ['Support', '.gitbook/includes/support.md'],
    ]);
    expect(rev.reusableContents.every((c: Json) => /^[0-9a-f]{40}$/.test(c.git.oid) && typeof c.document === 'string')).toBe(true);
    const [beta, support] = rev.reusableContents.map((c: Json) => c.id as string);
    const pages = flatPages(rev.pages);
    const install = pages.find((p) => p.title === 'Install')!;
    const welcome = pages.find((p) => p.title === 'Welcome')!;
    expect(includesOf(install.document)).toEqual([beta, support]);
    expect(includesOf(welcome.document)).toEqual([beta]);

    // nothing changed: no commit
    await sync(spaceId, 'inc', 'export');
    expect(git.commitCount('inc')).toBe(1);

    // an edited page that includes: written back with its includes as paths relative to its file
    const markdown = (await admin.get(`/v1/spaces/${spaceId}/content/page/${install.id}?format=markdown`)).body.markdown as string;
    expect(markdown).toContain(`{% include "/reusable-content/${beta}" %}`);
    const writer = contentWriter(sut);
    try {
      await writer.apply(owner.id, spaceId, [{ operation: 'update_page', page: install.id, document: { markdown: markdown.replace('Then run it.', 'Then run it twice.') } }]);
    } finally {
      writer.close();
    }
    await sync(spaceId, 'inc', 'export');
    const pushed = git.head('inc')!;
    expect(git.changedFiles('inc', pushed)).toEqual(['guide/install.md']);
    expect(git.filesAt('inc', pushed)['guide/install.md']).toBe(
      '# Install\n\nFirst:\n\n{% include "../.gitbook/includes/beta.md" %}\n\n{% include "../.gitbook/includes/support.md" %}\n\nThen run it twice.\n',
    );

    // the repository edits a reusable content and drops the other: same id, new text; the dropped one is gone
    git.commit(
      'inc',
      {
        '.gitbook/includes/beta.md': BETA.replace('This is in beta.', 'This is still in beta.'),
        '.gitbook/includes/support.md': null,
        'guide/install.md': '# Install\n\n{% include "../.gitbook/includes/beta.md" %}\n',
      },
      'Edit the warning',
    );
    await sync(spaceId, 'inc', 'import');
    const next = await revision(spaceId);
    expect(next.reusableContents.map((c: Json) => [c.id, c.title])).toEqual([[beta, 'Beta warning']]);
    expect(next.reusableContents[0].document).not.toBe(rev.reusableContents[0].document);
    expect(includesOf(flatPages(next.pages).find((p) => p.title === 'Install')!.document)).toEqual([beta]);

    // a fresh repository: every file written, the reusable content with its title in front matter
    git.createRepository('fresh');
    await sync(spaceId, 'fresh', 'export');
    const files = git.filesAt('fresh', git.head('fresh')!);
    expect(files['.gitbook/includes/beta.md']).toBe(
      '---\ntitle: Beta warning\n---\n\n{% hint style="warning" %}\nThis is still in beta. See [Install](../../guide/install.md).\n{% endhint %}\n',
    );
    expect(files['guide/install.md']).toBe('# Install\n\n{% include "../.gitbook/includes/beta.md" %}\n');
    expect(files['README.md']).toContain('{% include ".gitbook/includes/beta.md" %}');
  }, 240_000);
});
