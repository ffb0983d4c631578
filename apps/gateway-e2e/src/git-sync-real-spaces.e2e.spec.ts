import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { GitBookAPI } from '@gitbook/api';
import { FINISHED, RunRecord, RUNS_COLLECTION } from '@bindery/platform/runs';
import { connectMongo, Db } from '@bindery/platform/mongo';
import { envPrefix, sharedOutboundSystem, SystemUnderTest, waitForRun } from '@bindery/shared/testing';
import { editChangeRequest, mergeChangeRequest, openChangeRequest, pageMarkdown } from './change-request-fixtures';
import { createSpace } from './content-fixtures';
import { flatPages, Json } from './content-model-fixtures';
import { createOrganization, createUser } from './fixtures';
import { startTestGitServer, TestGitServer } from './git-server-fixtures';
import { decodedPath, endsWithParagraph, fileSlug, lastLineWords, matchedCount, numstat, summaryOf, vendoredRepository, withSentenceAppended } from './gitbook-repo-fixtures';
import { Client, http } from './http-client';

/**
 * Two real repositories GitBook syncs with several spaces each, one directory per space (see SOURCE.md beside
 * each fixture). Each space is imported on its own (`repoProjectDirectory`), then: the unchanged space exports
 * no commit; one sentence appended to the last paragraph of three pages through a change request exports as
 * one commit changing one line of each of those three files and nothing else; importing that commit back makes no revision.
 */
const FIXTURES = path.join(__dirname, 'fixtures', 'gitbook-repos');
const REPOSITORIES = [
  { name: 'flowise-docs', fixture: 'flowise-docs', source: 'FlowiseAI/FlowiseDocs', spaces: ['en', 'esp'], withLargeFiles: true },
  // the same pages without the 2,028 files of large-files.tsv: the Markdown round trip apart from the files
  { name: 'flowise-docs-markdown', fixture: 'flowise-docs', source: 'FlowiseAI/FlowiseDocs (Markdown only)', spaces: ['en', 'esp'], withLargeFiles: false },
  { name: 'php-serialize', fixture: 'php-serialize', source: 'astral-data/php-serialize', spaces: ['docs/en', 'docs/zh'], withLargeFiles: true },
];
const SENTENCE = 'This sentence was appended through a change request.';
const RUN_TIMEOUT_MS = 600_000;

type Figures = Record<string, unknown>;

describe('git sync of real GitBook repositories with several spaces (one space per directory)', () => {
  let sut: SystemUnderTest;
  let git: TestGitServer;
  let orgId: string;
  let admin: Client;
  let api: GitBookAPI;
  let mongo: { db: Db; close(): Promise<void> };
  const repositories = new Map<string, Record<string, Buffer>>();
  const table: { space: string; measured: Figures; goal: Figures }[] = [];

  beforeAll(async () => {
    // 2,028 binary files: committed without a search for deltas they do not have
    git = await startTestGitServer({ deltas: false });
    sut = await sharedOutboundSystem();
    const owner = await createUser(sut, 'real-spaces-owner');
    orgId = await createOrganization(sut, owner, 'Real spaces');
    admin = http(sut.baseUrl, owner.token);
    api = new GitBookAPI({ endpoint: sut.baseUrl, authToken: owner.token });
    mongo = await connectMongo(sut.env.MONGODB_URL, sut.env[`${envPrefix('git-sync')}_DB`], 'tests');
    for (const repo of REPOSITORIES) {
      const files = vendoredRepository(path.join(FIXTURES, repo.fixture), { withLargeFiles: repo.withLargeFiles });
      git.createRepository(repo.name);
      git.commit(repo.name, files, 'The repository as GitBook syncs it');
      repositories.set(repo.name, files);
    }
  }, 600_000);
  afterAll(async () => {
    const keys = [...new Set(table.flatMap((row) => Object.keys(row.goal)))];
    const cell = (v: unknown) => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));
    const lines = [
      `| figure | ${table.map((row) => row.space).join(' | ')} |`,
      `| --- | ${table.map(() => '---').join(' | ')} |`,
      ...keys.map(
        (k) => `| ${k} | ${table.map((row) => `${cell(row.measured[k])}${cell(row.measured[k]) === cell(row.goal[k]) ? '' : ` (goal ${cell(row.goal[k])})`}`).join(' | ')} |`,
      ),
    ];
    console.log(`git sync of real spaces, measured (goal where it differs):\n${lines.join('\n')}`);
    await mongo?.close();
    await git?.close();
  });

  /** Starts an import or an export and answers its run once finished (failed runs included). */
  async function sync(spaceId: string, kind: 'import' | 'export', repo: string, space: string, extra: Json = {}): Promise<RunRecord> {
    const before = await mongo.db.collection<RunRecord>(RUNS_COLLECTION).countDocuments({ 'input.spaceId': spaceId, kind: `git-sync.${kind}` });
    const common = { url: git.url(repo), ref: 'refs/heads/main', repoProjectDirectory: space };
    const res =
      kind === 'import'
        ? await api.spaces.importGitRepository(spaceId, { ...common, ...extra })
        : await api.spaces.exportToGitRepository(spaceId, { ...common, commitMessage: 'Export', ...extra });
    expect(res.status).toBe(204);
    const runs = await mongo.db
      .collection<RunRecord>(RUNS_COLLECTION)
      .find({ 'input.spaceId': spaceId, kind: `git-sync.${kind}` })
      .sort({ createdAt: 1, _id: 1 })
      .toArray();
    expect(runs).toHaveLength(before + 1);
    return waitForRun(mongo.db, runs[runs.length - 1]._id, [...FINISHED], RUN_TIMEOUT_MS);
  }

  async function storedFiles(spaceId: string): Promise<Json[]> {
    const out: Json[] = [];
    let page: string | undefined;
    do {
      const res = await admin.get(`/v1/spaces/${spaceId}/content/files?limit=1000${page ? `&page=${encodeURIComponent(page)}` : ''}`);
      expect(res.status).toBe(200);
      out.push(...(res.body.items as Json[]));
      page = res.body.next?.page;
    } while (page);
    return out;
  }

  const diffSummary = (stat: Record<string, [number, number]>) => {
    const entries = Object.values(stat);
    return `${entries.length} files, +${entries.reduce((n, [a]) => n + a, 0)} -${entries.reduce((n, [, d]) => n + d, 0)}`;
  };
  const runOutcome = (run: RunRecord) => (run.status === 'completed' ? 'completed' : `${run.status}: ${run.reason ?? ''}`.slice(0, 160));
  const gitShow = (repo: string, commit: string, file: string) =>
    execFileSync('git', ['show', `${commit}:${file}`], { cwd: path.join(git.root, `${repo}.git`), encoding: 'utf8', maxBuffer: 64 << 20 });

  /** Measures one space; every figure is taken even when an earlier one misses its goal. */
  async function measure(repo: string, space: string, measured: Figures, goal: Figures): Promise<void> {
    const files = repositories.get(repo)!;
    const inSpace = Object.keys(files).filter((f) => f.startsWith(`${space}/`));
    const summary = summaryOf(files[`${space}/SUMMARY.md`].toString('utf8'));
    // a file SUMMARY.md lists twice is one page (flowise esp/ lists README.md twice): GitBook's rule, each file once
    const documentEntries = summary.entries.filter((e, i, all) => !e.link && all.findIndex((o) => !o.link && o.target === e.target) === i);
    const linkEntries = summary.entries.filter((e) => e.link);
    const referenced = new Set(
      inSpace
        .filter((f) => f.endsWith('.md'))
        .flatMap((page) => [...files[page].toString('utf8').matchAll(/(?:\]\(|src=")([^)"\s#?]+)/g)].map((m) => path.posix.join(path.posix.dirname(page), decodedPath(m[1]))))
        .filter((f) => files[f] && !f.endsWith('.md')),
    );
    // the space's files: all of .gitbook/assets/ and the other files a page links to by a relative path
    const assets = inSpace.filter((f) => f.startsWith(`${space}/.gitbook/assets/`) || referenced.has(f));
    const distinctAssets = new Map(assets.map((f) => [files[f].toString('base64'), files[f].length]));
    Object.assign(goal, {
      importRun: 'completed',
      summaryEntries: summary.entries.length,
      pagesImported: documentEntries.length + linkEntries.length,
      linkPages: linkEntries.length,
      groups: summary.groups.length,
      slugIsFileName: documentEntries.filter((e) => fileSlug(e.target) !== '').length,
      filesImported: distinctAssets.size,
      largestFile: Math.max(0, ...distinctAssets.values()),
      exportUnchangedRun: 'completed',
      exportUnchangedCommits: 0,
      exportUnchangedDiff: 'none',
      editedPages: 3,
      editExportRun: 'completed',
      editExportCommits: 1,
      editDiff: '3 files, +1 -1 each',
      editedFilesAsExpected: 3,
      reimportChanged: false,
      reimportRevisions: 0,
    });
    measured.summaryEntries = summary.entries.length;

    const spaceId = (await createSpace(admin, orgId, { title: `${repo} ${space}` })).id as string;
    const imported = await sync(spaceId, 'import', repo, space);
    measured.importRun = runOutcome(imported);
    const content = (await admin.get(`/v1/spaces/${spaceId}/content`)).body;
    const pages = flatPages(content.pages ?? []);
    const documents = pages.filter((p) => p.type === 'document');
    // Markdown files SUMMARY.md does not list are imported hidden (kept, out of the navigation, as GitBook leaves them out)
    measured.pagesImported = pages.filter((p) => p.type !== 'group' && !p.hidden).length;
    console.log(`${repo} ${space}: ${pages.filter((p) => p.hidden).length} page(s) hidden (files SUMMARY.md does not list)`);
    measured.linkPages = pages.filter((p) => p.type === 'link').length;
    measured.groups = pages.filter((p) => p.type === 'group').length;
    // SUMMARY.md's entries whose file name is the slug of an imported page (each page counted once)
    measured.slugIsFileName = matchedCount(
      documentEntries.map((e) => fileSlug(e.target)).filter((slug) => slug !== ''),
      documents.map((p) => p.slug as string),
    );
    const stored = await storedFiles(spaceId);
    measured.filesImported = stored.length;
    measured.largestFile = Math.max(0, ...stored.map((f) => Number(f.size)));

    const start = git.commitCount(repo);
    const unchanged = await sync(spaceId, 'export', repo, space, { commitMessage: 'Nothing changed' });
    measured.exportUnchangedRun = runOutcome(unchanged);
    measured.exportUnchangedCommits = git.commitCount(repo) - start;
    if (measured.exportUnchangedCommits) {
      const stat = numstat(path.join(git.root, `${repo}.git`), git.head(repo)!);
      measured.exportUnchangedDiff = diffSummary(stat);
      console.log(
        `${repo} ${space}: the export of the unchanged space\n${Object.entries(stat)
          .map(([file, [a, d]]) => `+${a} -${d} ${file}`)
          .join('\n')}`,
      );
    } else measured.exportUnchangedDiff = 'none';

    // three pages whose file ends with a paragraph (the sentence goes on a new line after it); a file's page is
    // found near its place in SUMMARY.md's order by the words of that last line
    const printed = new Map<string, string>();
    const markdownOf = async (pageId: string) => printed.get(pageId) ?? printed.set(pageId, await pageMarkdown(admin, spaceId, pageId)).get(pageId)!;
    const edits: { file: string; page: Json }[] = [];
    for (const [i, entry] of documentEntries.entries()) {
      const file = path.posix.join(space, decodedPath(entry.target.split('#')[0]));
      const text = files[file]?.toString('utf8') ?? '';
      if (edits.length === 3 || edits.some((e) => e.file === file) || !endsWithParagraph(text)) continue;
      const words = lastLineWords(text);
      const near = [...documents.slice(Math.max(0, i - 5), i + 6), ...documents.filter((p) => p.title === entry.title)];
      for (const page of near) {
        if (edits.some((e) => e.page.id === page.id) || !(await markdownOf(page.id)).includes(words)) continue;
        edits.push({ file, page });
        break;
      }
    }
    measured.editedPages = edits.length;
    if (edits.length) {
      const cr = await openChangeRequest(admin, spaceId, 'Append a sentence to three pages');
      const changes = [];
      for (const edit of edits) {
        const markdown = await markdownOf(edit.page.id);
        changes.push({ operation: 'update_page', page: edit.page.id, document: { markdown: `${markdown.replace(/\s+$/, '')} ${SENTENCE}\n` } });
      }
      await editChangeRequest(admin, spaceId, cr.id as string, changes);
      await mergeChangeRequest(admin, spaceId, cr.id as string);
    }
    const beforeEdit = git.commitCount(repo);
    const exported = await sync(spaceId, 'export', repo, space, { commitMessage: 'Append a sentence to three pages' });
    measured.editExportRun = runOutcome(exported);
    measured.editExportCommits = git.commitCount(repo) - beforeEdit;
    const pushed = git.head(repo)!;
    const stat = measured.editExportCommits ? numstat(path.join(git.root, `${repo}.git`), pushed) : {};
    const statFiles = Object.entries(stat);
    if (measured.editExportCommits) {
      const diff = execFileSync('git', ['show', '--format=', pushed], { cwd: path.join(git.root, `${repo}.git`), encoding: 'utf8', maxBuffer: 64 << 20 });
      console.log(`${repo} ${space}: the export of the three edits\n${diff.split('\n').slice(0, 120).join('\n')}`);
    }
    measured.editDiff = statFiles.length === 3 && statFiles.every(([, [a, d]]) => a === 1 && d === 1) ? '3 files, +1 -1 each' : diffSummary(stat);
    measured.editedFilesAsExpected = edits.filter((e) => stat[e.file] && gitShow(repo, pushed, e.file) === withSentenceAppended(files[e.file].toString('utf8'), SENTENCE)).length;

    const revision = (await admin.get(`/v1/spaces/${spaceId}/content`)).body.id;
    const back = await sync(spaceId, 'import', repo, space);
    measured.reimportChanged = (back.result as Json | undefined)?.changed ?? runOutcome(back);
    measured.reimportRevisions = (await admin.get(`/v1/spaces/${spaceId}/content`)).body.id === revision ? 0 : 1;
  }

  for (const repo of REPOSITORIES) {
    for (const space of repo.spaces) {
      test(`${repo.source} ${space}/: SUMMARY.md's pages and slugs, its files, a no-op export, a three-line export and a no-op re-import`, async () => {
        const measured: Figures = {};
        const goal: Figures = {};
        table.push({ space: `${repo.name} ${space}`, measured, goal });
        await measure(repo.name, space, measured, goal);
        expect(measured).toEqual(goal);
      }, 1_800_000);
    }
  }
});
