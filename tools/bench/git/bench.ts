// Git sync's import against git alone, in one run.
// - git alone: `git clone` of the repository from the loopback git server into a temporary
//   directory, then reading every file of the checkout (what any importer must do at least).
// - through Bindery: a whole system (identity, content, git-sync and the gateway from dist/apps, with
//   their own timings, the outbound guard opened to loopback); each round imports the repository into
//   a new space (POST …/git/import) and waits until git-sync's run has completed (read from its
//   database: the route answers 204 without a run id): the fetch into git-sync's cache, the read of
//   SUMMARY.md and every page, and content's writes of the whole tree.
// Goal (issue 23): Bindery p50 ≤ 3 × git alone. Peak RSS: git-sync's and content's (VmHWM).
// BENCH_ASSET_MB=100: the repository also holds one incompressible file of that size (generated at run
// time), referred to by the readme; each import must store it, and the peak RSS before the first import
// is printed next to the peak after the last, so what the file costs in memory shows.
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { connectMongo } from '@bindery/platform/mongo';
import { RunRecord, RUNS_COLLECTION } from '@bindery/platform/runs';
import { envPrefix, gitbookRepository, startSystem, startTestGitServer, SystemUnderTest, TestGitServer, waitForRun } from '@bindery/shared/testing';

const PAGES = Number(process.env.BENCH_PAGES || 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const ASSET_MB = Number(process.env.BENCH_ASSET_MB || 0);
const log = (msg: string) => console.log(`[bench:git] ${msg}`);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

function client(baseUrl: string, token: string) {
  return async (method: string, path: string, body?: unknown, expected = [200, 201, 204]): Promise<Json> => {
    const res = await fetch(baseUrl + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!expected.includes(res.status)) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
}

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

function peakRssMb(pid: number | undefined): number {
  if (!pid) return NaN;
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Clones the repository and reads every file of the checkout; answers the files read. (git runs apart: the git server is in this process.) */
async function cloneAndRead(url: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bindery-bench-clone-'));
  try {
    await promisify(execFile)('git', ['clone', '--quiet', '--', url, join(dir, 'repo')], { env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } });
    let files = 0;
    for (const entry of readdirSync(join(dir, 'repo'), { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() || entry.parentPath.includes(`${join(dir, 'repo', '.git')}`)) continue;
      readFileSync(join(entry.parentPath, entry.name));
      files++;
    }
    return files;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  let git: TestGitServer | undefined;
  let sut: SystemUnderTest | undefined;
  let mongo: Awaited<ReturnType<typeof connectMongo>> | undefined;
  try {
    git = await startTestGitServer();
    const repo = gitbookRepository(PAGES);
    if (ASSET_MB > 0) {
      repo.files['.gitbook/assets/large.bin'] = randomBytes(ASSET_MB * 1024 * 1024);
      repo.files['README.md'] = `${repo.files['README.md']}\n![A large file](.gitbook/assets/large.bin)\n`;
    }
    git.createRepository('book');
    git.commit('book', repo.files, 'A generated book');
    const packed = execFileSync('git', ['count-objects', '-v'], { cwd: join(git.root, 'book.git'), encoding: 'utf8' });
    const kb = Number(/size-pack: (\d+)/.exec(packed)?.[1] ?? 0) + Number(/^size: (\d+)/m.exec(packed)?.[1] ?? 0);

    // git alone: round 0 warms the page cache
    let files = 0;
    const alone: number[] = [];
    for (let round = 0; round <= ROUNDS; round++) {
      const t0 = performance.now();
      files = await cloneAndRead(git.url('book'));
      if (round > 0) alone.push(performance.now() - t0);
    }

    sut = await startSystem({ BINDERY_OUTBOUND_ALLOW_PRIVATE: 'true' }, { services: ['identity', 'content', 'git-sync'], appDefaults: true, split: true });
    mongo = await connectMongo(sut.env.MONGODB_URL, sut.env[`${envPrefix('git-sync')}_DB`], 'bench');
    const runs = mongo.db.collection<RunRecord>(RUNS_COLLECTION);
    const admin = client(sut.baseUrl, sut.adminToken);
    const pids = { gitSync: sut.apps['git-sync'].child.pid, content: sut.apps['content'].child.pid };
    const startRss = { gitSync: peakRssMb(pids.gitSync), content: peakRssMb(pids.content) };
    const orgId = (await admin('POST', '/v1/orgs', { title: 'Git bench' })).id as string;
    // through Bindery: round 0 warms the services up (and fills git-sync's cache: later rounds fetch nothing new)
    const through: number[] = [];
    for (let round = 0; round <= ROUNDS; round++) {
      const spaceId = (await admin('POST', `/v1/orgs/${orgId}/spaces`, { title: `Book ${round}` })).id as string;
      const t0 = performance.now();
      await admin('POST', `/v1/spaces/${spaceId}/git/import`, { url: git.url('book'), ref: 'refs/heads/main' });
      const run = await runs.findOne({ 'input.spaceId': spaceId });
      if (!run) throw new Error('no import run');
      const done = await waitForRun(mongo.db, run._id, ['completed', 'failed', 'cancelled'], 600_000);
      if (round > 0) through.push(performance.now() - t0);
      if (done.status !== 'completed') throw new Error(`the import ${done.status}: ${done.reason}`);
      if (done.result?.['pages'] !== repo.pages) throw new Error(`the import wrote ${done.result?.['pages']} pages, not ${repo.pages}`);
      if (done.result?.['skippedFiles']) throw new Error(`the import left files out: ${JSON.stringify(done.result['skippedFiles'])}`);
    }
    log(`git clone + read: ${alone.map((t) => t.toFixed(0)).join(', ')} ms; git-sync import: ${through.map((t) => t.toFixed(0)).join(', ')} ms`);
    const ratio = p50(through) / p50(alone);
    console.log(`\nImporting a ${repo.pages}-page GitBook repository (${files} files${ASSET_MB ? `, one of ${ASSET_MB} MB` : ''}, ${kb} KB of objects), ${ROUNDS} round(s), p50`);
    console.log(`(a) git clone + read all ${files} files ${p50(alone).toFixed(0).padStart(10)} ms`);
    console.log(`(b) git-sync import through the API ${p50(through).toFixed(0).padStart(10)} ms`);
    console.log(`ratio (b) / (a): ${ratio.toFixed(2)}× (goal ≤ 3×)`);
    console.log(
      `peak RSS MB: git-sync service ${peakRssMb(pids.gitSync).toFixed(0)}, content service ${peakRssMb(pids.content).toFixed(0)}, this process (git alone's reads) ${(process.resourceUsage().maxRSS / 1024).toFixed(0)}`,
    );
    console.log(`peak RSS MB before the first import: git-sync service ${startRss.gitSync.toFixed(0)}, content service ${startRss.content.toFixed(0)}`);
  } finally {
    await mongo?.close();
    await sut?.stop();
    await git?.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
