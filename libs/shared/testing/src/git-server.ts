import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as nodeHttp from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

/** One request that reached the test git server. */
export interface GitRequest {
  method: string;
  path: string;
  /** the Authorization header as sent (undefined: none) */
  authorization?: string;
  status: number;
}

/**
 * A git server on loopback: `git http-backend` (smart HTTP, push enabled) behind a small CGI wrapper,
 * serving bare repositories in a temporary directory. With `auth`, every request needs that Basic
 * user and password (401 otherwise), which is how a test proves credentials reach git and nowhere else.
 */
export interface TestGitServer {
  origin: string;
  /** the temporary directory holding the bare repositories */
  root: string;
  requests: GitRequest[];
  /** how long each request waits before it is served (0: none), to keep a run on the wire */
  delayMs: number;
  /** http://[user:password@]127.0.0.1:port/<name>.git */
  url(name: string, withCredentials?: boolean): string;
  /** Creates an empty bare repository `<name>.git`. */
  createRepository(name: string): void;
  /** Commits `files` (path → content; null removes) on `branch` of a repository; answers the commit. */
  commit(name: string, files: Record<string, string | Buffer | null>, message?: string, branch?: string): string;
  /** The commit `branch` points at (null: no such branch). */
  head(name: string, branch?: string): string | null;
  /** Files of a commit (path → content). */
  filesAt(name: string, commit: string): Record<string, string>;
  /** Paths a commit changes against its first parent. */
  changedFiles(name: string, commit: string): string[];
  /** How many commits `branch` has. */
  commitCount(name: string, branch?: string): number;
  close(): Promise<void>;
}

const GIT_ENV = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

export interface TestGitServerOptions {
  auth?: { user: string; password: string };
  /**
   * false: `commit` pushes its objects whole, without looking for deltas between them. Looking for deltas
   * among thousands of large binary files (which have none) is most of the time a commit of them takes;
   * the repository holds the same commits and files, its pack stores each object whole.
   */
  deltas?: boolean;
}

export async function startTestGitServer(options: TestGitServerOptions = {}): Promise<TestGitServer> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-git-server-'));
  const requests: GitRequest[] = [];
  const expected = options.auth ? `Basic ${Buffer.from(`${options.auth.user}:${options.auth.password}`).toString('base64')}` : undefined;

  const server = nodeHttp.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const record: GitRequest = { method: req.method ?? '', path: url.pathname, authorization: req.headers.authorization, status: 0 };
    requests.push(record);
    if (testServer.delayMs > 0) {
      const delay = setTimeout(() => serve(req, res, url, record), testServer.delayMs);
      res.on('close', () => clearTimeout(delay));
      return;
    }
    serve(req, res, url, record);
  });

  function serve(req: nodeHttp.IncomingMessage, res: nodeHttp.ServerResponse, url: URL, record: GitRequest) {
    if (expected && req.headers.authorization !== expected) {
      record.status = 401;
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end();
      return;
    }
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      ...GIT_ENV,
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.replace(/^\?/, ''),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      REMOTE_USER: options.auth?.user ?? 'anonymous',
      REMOTE_ADDR: req.socket.remoteAddress ?? '',
      ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
      ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: String(req.headers['content-encoding']) } : {}),
      ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
    };
    const cgi = spawn('git', ['-c', 'http.receivepack=true', 'http-backend'], { env });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let headersDone = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      headersDone = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const i = line.indexOf(':');
        const name = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
        else res.setHeader(name, value);
      }
      record.status = status;
      res.writeHead(status);
      res.write(head.subarray(end + 4));
    });
    cgi.on('close', () => {
      if (!headersDone) {
        record.status = 500;
        res.writeHead(500).end();
      } else res.end();
    });
    cgi.on('error', () => res.destroy());
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  const bare = (name: string) => path.join(root, `${name}.git`);
  const git = (args: string[], cwd: string) => execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8', maxBuffer: 64 << 20 });

  const testServer: TestGitServer = {
    origin,
    root,
    requests,
    delayMs: 0,
    url(name, withCredentials = true) {
      const auth = withCredentials && options.auth ? `${encodeURIComponent(options.auth.user)}:${encodeURIComponent(options.auth.password)}@` : '';
      return `http://${auth}127.0.0.1:${port}/${name}.git`;
    },
    createRepository(name) {
      fs.mkdirSync(bare(name), { recursive: true });
      git(['init', '--bare', '--quiet', '--initial-branch=main'], bare(name));
    },
    commit(name, files, message = 'Change', branch = 'main') {
      const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-git-work-'));
      try {
        git(['init', '--quiet', `--initial-branch=${branch}`], work);
        const parent = testServer.head(name, branch);
        if (parent) {
          git(['fetch', '--quiet', bare(name), `refs/heads/${branch}`], work);
          git(['reset', '--quiet', '--hard', 'FETCH_HEAD'], work);
        }
        for (const [file, content] of Object.entries(files)) {
          const full = path.join(work, file);
          if (content === null) fs.rmSync(full, { force: true });
          else {
            fs.mkdirSync(path.dirname(full), { recursive: true });
            fs.writeFileSync(full, content);
          }
        }
        git(['add', '-A'], work);
        git(['commit', '--quiet', '--allow-empty', '-m', message], work);
        git([...(options.deltas === false ? ['-c', 'pack.window=0'] : []), 'push', '--quiet', bare(name), `HEAD:refs/heads/${branch}`], work);
        return git(['rev-parse', 'HEAD'], work).trim();
      } finally {
        fs.rmSync(work, { recursive: true, force: true });
      }
    },
    head(name, branch = 'main') {
      try {
        return git(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], bare(name)).trim() || null;
      } catch {
        return null;
      }
    },
    filesAt(name, commit) {
      const out: Record<string, string> = {};
      for (const file of git(['ls-tree', '-r', '--name-only', '-z', commit], bare(name)).split('\0').filter(Boolean)) {
        out[file] = git(['show', `${commit}:${file}`], bare(name));
      }
      return out;
    },
    changedFiles(name, commit) {
      return git(['diff-tree', '--no-commit-id', '--name-only', '-r', '-z', '--root', commit], bare(name)).split('\0').filter(Boolean);
    },
    commitCount(name, branch = 'main') {
      return Number(git(['rev-list', '--count', `refs/heads/${branch}`], bare(name)).trim());
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
  return testServer;
}
