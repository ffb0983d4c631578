/**
 * How a request path below a site splits into the content URL to resolve and what is asked of it.
 * `~` never begins a basename, section or site-space path, nor a page slug's first character in
 * the reader's own segments, so none of these can be taken for content.
 */
export type Route =
  | { kind: 'page'; contentPath: string }
  | { kind: 'markdown'; contentPath: string }
  | { kind: 'site-file'; file: 'llms.txt' | 'llms-full.txt' | 'sitemap.xml' | 'robots.txt'; contentPath: string }
  | { kind: 'search'; json: boolean; contentPath: string }
  | { kind: 'file'; fileId: string; name: string; contentPath: string }
  | { kind: 'mcp'; contentPath: string };

const SITE_FILES = ['llms.txt', 'llms-full.txt', 'sitemap.xml', 'robots.txt'] as const;

export function routeOf(path: string): Route {
  if (path.endsWith('/~gitbook/mcp')) return { kind: 'mcp', contentPath: path.slice(0, -'/~gitbook/mcp'.length) || '/' };
  const fileMatch = /^(.*)\/~files\/([A-Za-z0-9_-]{1,128})\/([^/]+)$/.exec(path);
  if (fileMatch) return { kind: 'file', fileId: fileMatch[2], name: fileMatch[3], contentPath: fileMatch[1] || '/' };
  const searchMatch = /^(.*)\/~search(\.json)?$/.exec(path);
  if (searchMatch) return { kind: 'search', json: !!searchMatch[2], contentPath: searchMatch[1] || '/' };
  for (const file of SITE_FILES) {
    if (path.endsWith(`/${file}`)) return { kind: 'site-file', file, contentPath: path.slice(0, -file.length) };
  }
  if (path.endsWith('.md') && path.length > 4) return { kind: 'markdown', contentPath: path.slice(0, -3) };
  return { kind: 'page', contentPath: path };
}

/** `/<site>/~share/<key>/<rest>`: the site's root path, the key, and the path after it. */
export function shareLinkIn(path: string): { siteRoot: string; key: string; rest: string } | undefined {
  const m = /^(.*?)\/~share\/([^/]+)(\/.*)?$/.exec(path);
  if (!m) return undefined;
  let key: string;
  try {
    key = decodeURIComponent(m[2]);
  } catch {
    return undefined;
  }
  if (!key || key.length > 512) return undefined;
  return { siteRoot: m[1], key, rest: m[3] ?? '/' };
}

/** Cookies of a request, by name (the first of a repeated name). */
export function cookiesOf(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const name = part.slice(0, i).trim();
    if (!name || out.has(name)) continue;
    try {
      out.set(name, decodeURIComponent(part.slice(i + 1).trim()));
    } catch {
      /* a cookie that is not ours */
    }
  }
  return out;
}

export const SHARE_COOKIE = 'bindery_share';
export const VISITOR_COOKIE = 'bindery_visitor';

/** A cookie for one site: only its pages receive it; scripts cannot read it. */
export function siteCookie(name: string, value: string, sitePath: string, secure: boolean): string {
  return `${name}=${encodeURIComponent(value)}; Path=${sitePath || '/'}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** A request's path as logs may hold it: no query (it may carry a visitor token), no share key. */
export const pathToLog = (url: string | undefined): string => (url ?? '').split('?')[0].replace(/\/~share\/[^/]+/, '/~share/…');
