import { posix } from 'node:path';

/**
 * `.gitbook.yaml` redirects (`old/path: new/file.md`, both relative to the space's root), resolved
 * against the pages an import wrote, for the sites that publish the space (docs/git-sync.md):
 * - the source becomes a path below the space's published URL: `/` then its segments, each
 *   percent-encoded so that it is a valid site redirect source (never a wildcard: a `*` is encoded);
 * - a target naming a Markdown file of the import (`new/file.md`, `./new/file.md`, a folder whose
 *   README.md it is) leads to the page imported from it, with the fragment of `file.md#anchor`;
 *   an absolute http(s) URL leads there;
 * - anything else (a file that is no page, an empty or `..` path, a source longer than a site
 *   redirect takes) is left out and named, so that the run can report it.
 */
export interface ResolvedGitRedirect {
  source: string;
  pageId: string;
  anchor: string;
  url: string;
}

/** A site redirect's source is at most this long (sites' REDIRECT_SOURCE_MAX). */
const SOURCE_MAX = 512;
/** More than this many redirects are left out (an event carries them all). */
export const GIT_REDIRECTS_MAX = 2000;
/** An anchor longer than this leads nowhere a heading id could. */
const ANCHOR_MAX = 200;
/** The redirects of one import, as characters: they ride in one event, which must stay well under Kafka's 1 MB message limit. */
export const GIT_REDIRECTS_MAX_CHARS = 256 * 1024;

/** One segment in the characters a site redirect source allows (URL-safe or percent-encoded). */
function encodeSegment(segment: string): string {
  let raw = segment;
  try {
    raw = decodeURIComponent(segment);
  } catch {
    // not percent-encoding: taken as written
  }
  return encodeURIComponent(raw).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The source as a path below the space's URL; undefined when it names nothing (the space itself, `..`). */
export function gitRedirectSource(key: string): string | undefined {
  const segments = key
    .trim()
    .split(/[?#]/)[0]
    .split('/')
    .filter((s) => s && s !== '.');
  if (!segments.length || segments.includes('..')) return undefined;
  const source = `/${segments.map(encodeSegment).join('/')}`;
  return source.length <= SOURCE_MAX ? source : undefined;
}

function externalUrl(target: string): string | undefined {
  if (!/^https?:\/\//i.test(target)) return undefined;
  try {
    return target.length <= 2048 && new URL(target) ? target : undefined;
  } catch {
    return undefined;
  }
}

/** The page a target file names among the imported ones: the file, or the README.md of a folder. */
function pageOfTarget(target: string, pageOfFile: ReadonlyMap<string, string>): string | undefined {
  let file = target;
  try {
    file = decodeURIComponent(target);
  } catch {
    // taken as written
  }
  file = posix.normalize(file.replace(/^\/+/, '')).replace(/\/+$/, '');
  if (!file || file === '.' || file.startsWith('..')) return undefined;
  return pageOfFile.get(file) ?? pageOfFile.get(`${file}/README.md`) ?? pageOfFile.get(`${file}.md`);
}

/**
 * The redirects of `.gitbook.yaml` resolved against `pageOfFile` (each imported Markdown file, relative
 * to the root, and the page imported from it), in the file's order, each source once; `leftOut` names
 * the sources that lead nowhere.
 */
export function resolveGitRedirects(redirects: Record<string, string>, pageOfFile: ReadonlyMap<string, string>): { redirects: ResolvedGitRedirect[]; leftOut: string[] } {
  const out: ResolvedGitRedirect[] = [];
  const leftOut: string[] = [];
  const seen = new Set<string>();
  let chars = 0;
  for (const [key, value] of Object.entries(redirects)) {
    const source = gitRedirectSource(key);
    const target = value.trim();
    const url = externalUrl(target);
    const hash = target.indexOf('#');
    const pageId = url ? undefined : pageOfTarget(hash < 0 ? target : target.slice(0, hash), pageOfFile);
    const anchor = pageId && hash >= 0 ? target.slice(hash + 1) : '';
    const size = (source?.length ?? 0) + anchor.length + (url?.length ?? 0) + (pageId?.length ?? 0);
    if (!source || seen.has(source) || (!url && !pageId) || anchor.length > ANCHOR_MAX || out.length >= GIT_REDIRECTS_MAX || chars + size > GIT_REDIRECTS_MAX_CHARS) {
      leftOut.push(key);
      continue;
    }
    seen.add(source);
    chars += size;
    out.push({ source, pageId: pageId ?? '', anchor, url: url ?? '' });
  }
  return { redirects: out, leftOut };
}
