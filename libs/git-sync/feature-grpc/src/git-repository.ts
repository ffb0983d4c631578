import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { simpleGit, SimpleGit } from 'simple-git';
import { PermanentRunFailure } from '@bindery/platform/runs';
import { outboundPolicyFromEnv, vetHost, systemResolver } from '@bindery/platform/outbound-http';
import type { Remote } from '@bindery/git-sync/domain';
import { currentRunScope, tooLargeReason } from './run-limits';

const COMMIT_ENV = ['GIT_INDEX_FILE', 'GIT_WORK_TREE', 'GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL'];

/** Where a run's git works, and its limits. */
export interface GitOptions {
  cacheDir: string;
  timeoutMs: number;
}

/**
 * A per-repository cache (a bare repository named by the hash of `repoCacheID` or of the URL) and the
 * one remote a run talks to. The remote's URL is passed on each command line without credentials;
 * the Authorization header reaches git through GIT_CONFIG_* variables of that one command, so neither
 * `.git/config` nor argv nor an error holds it. Only http(s) is allowed (GIT_ALLOW_PROTOCOL), the host
 * is vetted by the outbound guard and pinned (http.curloptResolve) so DNS cannot change the answer
 * after the check, redirects are not followed, and no prompt, submodule or LFS filter runs.
 */
export class GitRepository {
  private constructor(
    readonly dir: string,
    private readonly git: SimpleGit,
    private readonly remote: Remote,
    private readonly env: Record<string, string>,
    /** stops every git command of this repository (a fetch growing past the size limit) */
    private readonly cut: AbortController,
    private readonly maxBytes: number,
  ) {}

  static async open(remote: Remote, cacheId: string | undefined, options: GitOptions): Promise<GitRepository> {
    const policy = outboundPolicyFromEnv();
    const [address] = await vetHost(remote.host, { allowPrivate: policy.allowPrivate, resolve: systemResolver });
    const dir = path.join(
      options.cacheDir,
      createHash('sha256')
        .update(cacheId || remote.url)
        .digest('hex')
        .slice(0, 32),
    );
    await fs.mkdir(dir, { recursive: true });
    const pinned = `${remote.host.replace(/^\[|\]$/g, '')}:${remote.port}:${address.family === 6 ? `[${address.address}]` : address.address}`;
    const config: [string, string][] = [
      ['http.curloptResolve', pinned],
      ['http.followRedirects', 'false'],
      ['core.hooksPath', '/dev/null'],
      ['credential.helper', ''],
      ['filter.lfs.process', ''],
      ['filter.lfs.smudge', ''],
      ['filter.lfs.required', 'false'],
      ['submodule.recurse', 'false'],
      ['fetch.recurseSubmodules', 'false'],
    ];
    if (remote.authorization) config.push(['http.extraHeader', `Authorization: ${remote.authorization}`]);
    const env: Record<string, string> = {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: dir,
      GIT_TERMINAL_PROMPT: '0',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_ALLOW_PROTOCOL: 'http:https',
      GIT_CONFIG_COUNT: String(config.length),
      ...Object.fromEntries(
        config.flatMap(([k, v], i) => [
          [`GIT_CONFIG_KEY_${i}`, k],
          [`GIT_CONFIG_VALUE_${i}`, v],
        ]),
      ),
      ...(process.env['GIT_SSL_CAINFO'] ? { GIT_SSL_CAINFO: process.env['GIT_SSL_CAINFO'] } : {}),
    };
    // the run's signal (its deadline, a cancel, the service stopping) kills git commands in flight
    const run = currentRunScope();
    const cut = new AbortController();
    const git = simpleGit({
      baseDir: dir,
      abort: run ? AbortSignal.any([run.signal, cut.signal]) : cut.signal,
      timeout: { block: options.timeoutMs },
      // simple-git refuses GIT_* variables it was not told about: these are the ones set here and in commit()
      allowEnvironment: [...Object.keys(env), ...COMMIT_ENV],
      unsafe: { allowUnsafeConfigEnvCount: true, allowUnsafeConfigPaths: true, allowUnsafeCredentialHelper: true, allowUnsafeHooksPath: true, allowUnsafeFilter: true },
    }).env(env);
    const repo = new GitRepository(dir, git, remote, env, cut, run?.maxRepoBytes ?? Infinity);
    if (!(await fs.stat(path.join(dir, 'HEAD')).catch(() => null))) await repo.run(['init', '--bare', '--quiet']);
    return repo;
  }

  /** Runs git; an error says what failed without the command's output (which may name the URL). */
  async run(args: string[]): Promise<string> {
    try {
      return await this.git.raw(args);
    } catch (err) {
      const text = String((err as Error).message ?? '');
      const reason = /could not read|Authentication failed|403|401/.test(text)
        ? 'the remote refused the credentials'
        : /not found|couldn't find remote ref/i.test(text)
          ? 'the remote or its ref was not found'
          : /non-fast-forward|fetch first|rejected/.test(text)
            ? 'the remote moved on'
            : /returned error: 30\d|redirect/i.test(text)
              ? 'the remote answered with a redirect, which is not followed'
              : /timed out|timeout/i.test(text)
                ? 'git timed out'
                : 'git failed';
      // what another attempt would meet again fails the run at once; a timeout or another failure is retried
      const permanent = reason !== 'git timed out' && reason !== 'git failed';
      throw permanent ? new PermanentRunFailure(`${reason} (git ${args[0]})`) : new Error(`${reason} (git ${args[0]})`);
    }
  }

  /**
   * Fetches `ref` into a local ref of its own; answers its commit, or null when the remote has no such ref.
   * Held to the run's size limit: a fetch whose objects grow past it is stopped, and a ref whose
   * objects (history included, as stored) weigh more fails the run, before any file is read.
   */
  async fetch(ref: string): Promise<string | null> {
    const listed = await this.run(['ls-remote', '--', this.remote.url, ref]);
    if (!listed.trim()) return null;
    // one local ref per remote ref (runs of other spaces may fetch other branches of the cached repository
    // at once; two fetches of one branch can only leave its newer commit), kept for the next fetch's negotiation
    const local = `refs/sync/${ref.replace(/^refs\//, '')}`;
    const objects = path.join(this.dir, 'objects');
    const before = await sizeOf(objects);
    let grown = 0;
    let fetching = true;
    const watch = Number.isFinite(this.maxBytes)
      ? setInterval(() => {
          void sizeOf(objects).then((now) => {
            grown = Math.max(grown, now - before);
            // a measure finishing after the fetch must not cut the commands that follow it (the check below decides then)
            if (fetching && grown > this.maxBytes) this.cut.abort(new Error('too large'));
          });
        }, 100)
      : undefined;
    try {
      await this.run(['fetch', '--quiet', '--no-tags', '--no-recurse-submodules', '--force', '--', this.remote.url, `+${ref}:${local}`]);
    } catch (err) {
      if (this.cut.signal.aborted) throw new PermanentRunFailure(tooLargeReason(grown, this.maxBytes, false));
      throw err;
    } finally {
      fetching = false;
      clearInterval(watch);
    }
    // cut as the fetch was finishing: over the limit all the same (and every later command would be cut)
    if (this.cut.signal.aborted) throw new PermanentRunFailure(tooLargeReason(grown, this.maxBytes, false));
    if (Number.isFinite(this.maxBytes)) {
      const bytes = Number((await this.run(['rev-list', '--objects', '--disk-usage', local])).trim());
      if (bytes > this.maxBytes) throw new PermanentRunFailure(tooLargeReason(bytes, this.maxBytes, true));
    }
    return (await this.run(['rev-parse', `${local}^{commit}`])).trim();
  }

  /** The files of a commit under `dir` (paths relative to it) with their blob ids. */
  async files(commit: string, dir: string): Promise<Map<string, string>> {
    const out = await this.run(['ls-tree', '-r', '-z', '--full-tree', commit, ...(dir ? ['--', `${dir}/`] : [])]);
    const files = new Map<string, string>();
    for (const entry of out.split('\0')) {
      const m = /^(\d+) blob ([0-9a-f]+)\t(.*)$/s.exec(entry);
      if (!m || m[1] === '120000') continue;
      const rel = dir ? m[3].slice(dir.length + 1) : m[3];
      files.set(rel, m[2]);
    }
    return files;
  }

  /** Many blobs in one `git cat-file --batch` (one process, not one per file). */
  async readBlobs(oids: readonly string[]): Promise<Map<string, Buffer>> {
    const out = new Map<string, Buffer>();
    const wanted = [...new Set(oids)];
    if (!wanted.length) return out;
    const child = spawn('git', ['cat-file', '--batch'], { cwd: this.dir, env: this.env, stdio: ['pipe', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    const done = new Promise<number>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => resolve(code ?? 1));
    });
    child.stdin.end(wanted.map((o) => `${o}\n`).join(''));
    if ((await done) !== 0) throw new Error('git failed (git cat-file)');
    const all = Buffer.concat(chunks);
    let at = 0;
    for (const oid of wanted) {
      const eol = all.indexOf(0x0a, at);
      const header = all.subarray(at, eol).toString('utf8').split(' ');
      if (header[1] !== 'blob') throw new Error('git failed (git cat-file)');
      const size = Number(header[2]);
      out.set(oid, all.subarray(eol + 1, eol + 1 + size));
      at = eol + 1 + size + 1;
    }
    return out;
  }

  /**
   * One blob's bytes as they come out of `git cat-file blob`, in pieces of at most `pieceBytes`: the
   * next is read from git only when the consumer asks for it, so memory stays at a piece or two
   * whatever the blob's size. A consumer that stops early kills git; git failing fails the iteration.
   */
  async *streamBlob(oid: string, pieceBytes: number): AsyncGenerator<Buffer> {
    const run = currentRunScope();
    const child = spawn('git', ['cat-file', 'blob', oid], { cwd: this.dir, env: this.env, stdio: ['ignore', 'pipe', 'ignore'], ...(run ? { signal: run.signal } : {}) });
    const exited = new Promise<number>((resolve) => {
      child.on('error', () => resolve(-1));
      child.on('close', (code) => resolve(code ?? -1));
    });
    let parts: Buffer[] = [];
    let length = 0;
    let finished = false;
    try {
      for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
        parts.push(chunk);
        length += chunk.length;
        while (length >= pieceBytes) {
          const all = Buffer.concat(parts);
          yield all.subarray(0, pieceBytes);
          parts = [all.subarray(pieceBytes)];
          length -= pieceBytes;
        }
      }
      if ((await exited) !== 0) throw new Error('git failed (git cat-file)');
      if (length) yield Buffer.concat(parts);
      finished = true;
    } finally {
      if (!finished) child.kill('SIGKILL');
    }
  }

  async readBlob(oid: string): Promise<Buffer> {
    return Buffer.from(await this.git.binaryCatFile(['blob', oid]));
  }

  async writeBlob(content: string | Buffer): Promise<string> {
    const tmp = path.join(this.dir, `blob-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
    await fs.writeFile(tmp, content);
    try {
      return (await this.run(['hash-object', '-w', '--', tmp])).trim();
    } finally {
      await fs.rm(tmp, { force: true });
    }
  }

  /**
   * A commit on `parent` (none: a root commit) whose tree is the parent's with `changes` applied (a blob
   * id, or null to remove), built in a private index. Answers null when nothing changed.
   */
  async commit(parent: string | null, changes: Map<string, string | null>, message: string, author: { name: string; email: string }): Promise<string | null> {
    const unique = `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const index = path.join(this.dir, `index-${unique}`);
    // an empty work tree of its own: update-index refuses to remove an entry in a bare repository without one
    const workTree = await fs.mkdtemp(path.join(this.dir, 'tree-'));
    const env = {
      ...this.env,
      GIT_INDEX_FILE: index,
      GIT_WORK_TREE: workTree,
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_COMMITTER_NAME: author.name,
      GIT_COMMITTER_EMAIL: author.email,
    };
    const g = this.git.env(env);
    try {
      if (parent) await g.raw(['read-tree', parent]);
      else await g.raw(['read-tree', '--empty']);
      const before = parent ? (await g.raw(['rev-parse', `${parent}^{tree}`])).trim() : null;
      for (const [file, oid] of changes) {
        if (oid) await g.raw(['update-index', '--add', '--cacheinfo', `100644,${oid},${file}`]);
        else await g.raw(['update-index', '--force-remove', '--', file]);
      }
      const tree = (await g.raw(['write-tree'])).trim();
      if (tree === before) return null;
      return (await g.raw(['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', message])).trim();
    } catch {
      // git's own words stay out of the run's reason
      throw new Error('git failed while building the commit');
    } finally {
      this.git.env(this.env);
      await fs.rm(index, { force: true });
      await fs.rm(workTree, { recursive: true, force: true });
    }
  }

  /** Pushes `commit` to `ref`, only over `expected` (the commit the export started from) unless forced. */
  async push(commit: string, ref: string, expected: string | null, force: boolean): Promise<void> {
    const lease = force ? ['--force'] : [`--force-with-lease=${ref}:${expected ?? ''}`];
    await this.run(['push', '--quiet', '--no-recurse-submodules', ...lease, '--', this.remote.url, `${commit}:${ref}`]);
  }
}

/** The bytes of the files under `dir` (0 when it does not exist); files vanishing meanwhile count 0. */
async function sizeOf(dir: string): Promise<number> {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  const sizes = await Promise.all(
    entries
      .filter((e) => e.isFile())
      .map((e) =>
        fs.stat(path.join(e.parentPath ?? e.path, e.name)).then(
          (s) => s.size,
          () => 0,
        ),
      ),
  );
  return sizes.reduce((a, b) => a + b, 0);
}
