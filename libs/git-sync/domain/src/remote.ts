import { invalid } from '@bindery/platform/errors';

/** A remote as git-sync keeps it: the URL without credentials, and the credentials apart. */
export interface Remote {
  /** http(s) URL without user info, query or fragment */
  url: string;
  host: string;
  port: number;
  /** `Basic …` for an `Authorization` header, when the URL carried credentials */
  authorization?: string;
  /** `owner/name` from the path, without `.git` */
  repoName: string;
}

/**
 * Parses the URL of an import or export: only `http:` and `https:` remotes (no `file:`, `ssh:`,
 * `ext::`, scp-like `host:path` or other transports); credentials in the URL leave it here.
 * No error message repeats the URL (it may hold a password).
 */
export function parseRemote(raw: string): Remote {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw invalid('url must be an absolute http(s) URL of a Git repository.');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw invalid('url must use http or https.');
  if (!u.hostname) throw invalid('url must name a host.');
  if (u.search || u.hash) throw invalid('url must not have a query or a fragment.');
  const user = decodeURIComponent(u.username);
  const password = decodeURIComponent(u.password);
  const authorization = user || password ? `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` : undefined;
  u.username = '';
  u.password = '';
  const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
  const repoName = u.pathname
    .replace(/\.git\/?$/, '')
    .replace(/^\/+|\/+$/g, '')
    .split('/')
    .slice(-2)
    .join('/');
  return { url: u.toString(), host: u.hostname, port, ...(authorization ? { authorization } : {}), repoName };
}

/** A full branch ref (`refs/heads/<name>`) with a safe name. */
export function assertRef(ref: string): string {
  if (!/^refs\/heads\/[A-Za-z0-9._\-/]+$/.test(ref) || ref.includes('..') || ref.endsWith('/') || ref.endsWith('.lock')) {
    throw invalid('ref must be a full branch ref such as "refs/heads/main".');
  }
  return ref;
}

/** A project directory inside the repository: relative, no `..`. */
export function projectDirectory(dir: string | undefined): string {
  const d = (dir ?? '').replace(/^\.?\/+/, '').replace(/\/+$/, '');
  if (d.split('/').some((s) => s === '..')) throw invalid('repoProjectDirectory must stay inside the repository.');
  return d;
}
