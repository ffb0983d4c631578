import * as path from 'node:path';
import { GitBookAPI } from '@gitbook/api';
import { connectMongo, Db } from '@bindery/platform/mongo';
import { RunRecord, RUNS_COLLECTION } from '@bindery/platform/runs';
import { envPrefix, sharedOutboundSystem, SystemUnderTest, waitForRun } from '@bindery/shared/testing';
import { editChangeRequest, mergeChangeRequest, openChangeRequest, pageMarkdown } from './change-request-fixtures';
import { createSpace } from './content-fixtures';
import { flatPages, Json } from './content-model-fixtures';
import { createOrganization, createUser } from './fixtures';
import { fixtureFiles, startTestGitServer, TestGitServer } from './git-server-fixtures';
import { Client, http } from './http-client';

/** A real repository GitBook syncs (see fixtures/gitbook-repos/laravel-translatable/SOURCE.md). */
const FIXTURE = path.join(__dirname, 'fixtures', 'gitbook-repos', 'laravel-translatable');

describe('git sync of a real GitBook repository (Astrotomic/laravel-translatable, root ./docs, groups, one image under eight names)', () => {
  let sut: SystemUnderTest;
  let git: TestGitServer;
  let orgId: string;
  let admin: Client;
  let api: GitBookAPI;
  let mongo: { db: Db; close(): Promise<void> };

  beforeAll(async () => {
    git = await startTestGitServer({});
    sut = await sharedOutboundSystem();
    const owner = await createUser(sut, 'real-repo-owner');
    orgId = await createOrganization(sut, owner, 'Real repository');
    admin = http(sut.baseUrl, owner.token);
    api = new GitBookAPI({ endpoint: sut.baseUrl, authToken: owner.token });
    mongo = await connectMongo(sut.env.MONGODB_URL, sut.env[`${envPrefix('git-sync')}_DB`], 'tests');
  }, 180_000);
  afterAll(async () => {
    await mongo?.close();
    await git?.close();
  });

  async function lastRun(spaceId: string, kind: 'import' | 'export'): Promise<RunRecord> {
    const run = await mongo.db
      .collection<RunRecord>(RUNS_COLLECTION)
      .find({ 'input.spaceId': spaceId, kind: `git-sync.${kind}` })
      .sort({ createdAt: -1 })
      .limit(1)
      .next();
    if (!run) throw new Error(`no ${kind} run for ${spaceId}`);
    return waitForRun(mongo.db, run._id, ['completed', 'failed', 'cancelled'], 120_000);
  }
  const sync = async (spaceId: string, kind: 'import' | 'export', body: Json) => {
    const res =
      kind === 'import'
        ? await api.spaces.importGitRepository(spaceId, { url: git.url('lt'), ref: 'refs/heads/main', ...body })
        : await api.spaces.exportToGitRepository(spaceId, { url: git.url('lt'), ref: 'refs/heads/main', commitMessage: 'Export', ...body });
    expect(res.status).toBe(204);
    const run = await lastRun(spaceId, kind);
    expect([run.status, run.reason]).toEqual(['completed', undefined]);
    return run;
  };

  test('import → export of the unchanged repository makes no commit; a change request editing one page exports as a one-file commit; importing it back is a no-op', async () => {
    const files = fixtureFiles(FIXTURE);
    delete files['SOURCE.md'];
    delete files['LICENSE'];
    git.createRepository('lt');
    const initial = git.commit('lt', files, 'The repository as GitBook syncs it');
    const markdownFiles = Object.keys(files).filter((f) => f.startsWith('docs/') && f.endsWith('.md') && f !== 'docs/SUMMARY.md');
    const spaceId = (await createSpace(admin, orgId, { title: 'Translatable' })).id as string;

    const imported = await sync(spaceId, 'import', {});
    const content = (await admin.get(`/v1/spaces/${spaceId}/content`)).body;
    const pages = flatPages(content.pages);
    const documents = pages.filter((p) => p.type === 'document');
    const groups = content.pages.filter((p: Json) => p.type === 'group').map((p: Json) => [p.title, (p.pages as Json[]).length]);
    expect(documents).toHaveLength(markdownFiles.length);
    expect(groups).toEqual([
      ['Package', 6],
      ['Usage', 4],
    ]);
    expect(content.git).toMatchObject({ oid: initial });
    const stored = (await admin.get(`/v1/spaces/${spaceId}/content/files`)).body.items as Json[];
    const assetNames = Object.keys(files).filter((f) => f.startsWith('docs/.gitbook/assets/'));
    // nine names, two distinct contents: two files
    expect(assetNames).toHaveLength(9);
    expect(stored).toHaveLength(2);
    const readme = (await admin.get(`/v1/spaces/${spaceId}/content/page/${documents[0].id}`)).body;
    expect(JSON.stringify(readme.document)).toContain(JSON.stringify({ kind: 'file', file: stored.find((f) => f.name === 'socialcard.png')!.id }));

    // export of the unchanged space: no commit
    await sync(spaceId, 'export', { commitMessage: 'Nothing changed' });
    expect(git.commitCount('lt')).toBe(1);

    // a change request edits one page; merged and exported: one commit changing that file only
    const methods = documents.find((p) => p.title === 'Methods')!;
    const cr = await openChangeRequest(admin, spaceId, 'Clarify the preconditions');
    const before = await pageMarkdown(admin, spaceId, methods.id);
    const edited = before.replace('## Preconditions', '## Preconditions\n\nThese hold for every example below.');
    expect(edited).not.toBe(before);
    await editChangeRequest(admin, spaceId, cr.id as string, [{ operation: 'update_page', page: methods.id, document: { markdown: edited } }]);
    await mergeChangeRequest(admin, spaceId, cr.id as string);
    await sync(spaceId, 'export', { commitMessage: 'Clarify the preconditions' });
    expect(git.commitCount('lt')).toBe(2);
    const pushed = git.head('lt')!;
    expect(git.changedFiles('lt', pushed)).toEqual(['docs/package/methods.md']);
    expect(git.filesAt('lt', pushed)['docs/package/methods.md']).toContain('These hold for every example below.');

    // importing the exported commit: nothing to do
    const back = await sync(spaceId, 'import', {});
    expect(back.result).toMatchObject({ commit: pushed, changed: false });
    console.log(
      JSON.stringify({
        repository: 'Astrotomic/laravel-translatable',
        pages: documents.length,
        groups: groups.length,
        assetNames: assetNames.length,
        filesStored: stored.length,
        importRevisions: 1,
        exportUnchangedCommits: 0,
        exportOneEditChangedFiles: git.changedFiles('lt', pushed).length,
        importResult: imported.result,
      }),
    );
  }, 300_000);
});
