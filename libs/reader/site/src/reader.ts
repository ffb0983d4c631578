import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml as e, nodeAtPath, pageAtPath, PageNode } from '@bindery/reader/render';
import type { PublishedContent, ReaderSource, SiteView, Visitor } from './source';
import { ASSET_PREFIX, assetAt, THEME_SCRIPT_HASH } from './assets/assets';
import { cookiesOf, pathToLog, routeOf, SHARE_COOKIE, shareLinkIn, siteCookie, VISITOR_COOKIE } from './routes';
import { prefersMarkdown } from './negotiation';
import { isMcpPath, mcpRequestOf, overLimit, serveMcp } from './mcp';
import { RateLimiter, RateLimitOptions } from './rate-limit';
import { messagePage, pageApiSpecs, renderPageHtml, renderPageMarkdown, SpaceView } from './page-view';
import { apiVersionsKey, CachedApiSpecs } from './api-specs';
import { listingRevisions, siteFile } from './site-files';
import { bareShell } from './layout';
import { Lru } from './lru';
import { searchPage } from './search-page';
import { serveFile } from './files';

export interface ReaderOptions {
  source: ReaderSource;
  /** the reader's public URL (BINDERY_READER_URL): sites are at `<url>/<organization>/<basename>`; another Host is a custom hostname */
  publicUrl: string;
  /** BINDERY_READER_DOMAIN: a Host `<organization>.<domain>` serves that organization's sites at `/<basename>` */
  publicDomain?: string;
  /** rendered pages kept (HTML and Markdown, per site version, revision, page and audience) */
  renderCacheSize?: number;
  /** the specs pages' API blocks show (none: every API block is a note) */
  apiSpecs?: CachedApiSpecs;
  /** whether the services the source reads answer (GET /readyz) */
  ready?: () => Promise<boolean>;
  log?: (level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;
  /** requests to sites' MCP endpoints per client address (READER_MCP_BURST, READER_MCP_PER_MINUTE) */
  mcpRateLimit?: Pick<RateLimitOptions, 'burst' | 'perMinute' | 'clock'>;
  /** READER_CLIENT_ADDRESS_HEADER: the header a trusted proxy names the client's address in (else the peer's) */
  clientAddressHeader?: string;
  /** READER_LLMS_FULL_MAX_BYTES: the bound on a site's llms-full.txt */
  llmsFullMaxBytes?: number;
}

interface Rendered {
  body: Buffer;
  contentType: string;
  etag: string;
  lastModified: string;
  headers: Record<string, string>;
}

const CSP = `default-src 'none'; script-src 'self' ${THEME_SCRIPT_HASH}; style-src 'self' 'unsafe-inline'; img-src 'self' https: http: data:; font-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;

const etagOf = (body: Buffer) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

class HttpAnswer {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string> = {},
    readonly body = '',
  ) {}
}

/** A reader: routes a request below a site to its page, Markdown, listing, file or search. */
export class Reader {
  private readonly source: ReaderSource;
  private readonly publicOrigin: string;
  private readonly publicHost: string;
  private readonly publicDomain?: string;
  private readonly secure: boolean;
  private readonly rendered: Lru<Rendered>;
  private readonly log: NonNullable<ReaderOptions['log']>;
  private readonly mcpLimiter: RateLimiter;

  constructor(private readonly options: ReaderOptions) {
    this.source = options.source;
    const url = new URL(options.publicUrl);
    this.publicOrigin = url.origin;
    this.publicHost = url.host;
    this.publicDomain = options.publicDomain?.toLowerCase() || undefined;
    this.secure = url.protocol === 'https:';
    this.rendered = new Lru<Rendered>(options.renderCacheSize ?? 2000);
    this.log = options.log ?? (() => undefined);
    this.mcpLimiter = new RateLimiter(options.mcpRateLimit ?? { burst: 60, perMinute: 120 });
  }

  /** Drops every rendered page (the source's own caches are dropped by the source). */
  clearRendered(): void {
    this.rendered.clear();
  }

  /** The node:http request listener. */
  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    this.serve(req, res).catch((err: unknown) => {
      if (err instanceof HttpAnswer) return this.answer(res, err);
      this.log('error', 'reader request failed', { path: pathToLog(req.url), error: err instanceof Error ? err.message : String(err) });
      if (!res.headersSent)
        this.answer(
          res,
          new HttpAnswer(
            503,
            { 'Content-Type': 'text/html; charset=utf-8', 'Retry-After': '1' },
            bareShell('Unavailable', '<h1>This page is unavailable right now</h1><p>Please try again in a moment.</p>'),
          ),
        );
      else res.destroy();
    });
  };

  private answer(res: ServerResponse, a: HttpAnswer): void {
    res.writeHead(a.status, { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...a.headers });
    res.end(a.body);
  }

  private notFound(): HttpAnswer {
    return new HttpAnswer(
      404,
      { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': CSP },
      bareShell('Page not found', '<h1>Page not found</h1><p>Nothing is published at this address.</p>'),
    );
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const agent = isMcpPath(req.url?.split('?')[0] ?? '');
    if (req.method !== 'GET' && req.method !== 'HEAD' && !agent)
      throw new HttpAnswer(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }, 'Method not allowed\n');
    const url = new URL(req.url ?? '/', 'http://reader.invalid');
    const path = url.pathname;
    if (path === '/healthz') throw new HttpAnswer(200, { 'Content-Type': 'text/plain' }, 'ok\n');
    if (path === '/readyz') {
      const ready = (await this.options.ready?.().catch(() => false)) ?? true;
      throw new HttpAnswer(ready ? 200 : 503, { 'Content-Type': 'text/plain' }, ready ? 'ready\n' : 'not ready\n');
    }
    if (path.startsWith(`${ASSET_PREFIX}/`)) return this.asset(req, res, path);
    if (agent && overLimit(req, res, this.mcpLimiter, this.options.clientAddressHeader)) return;

    const host = String(req.headers.host ?? this.publicHost);
    const onReaderHost = host === this.publicHost;
    if (onReaderHost && (path === '/' || path === '/robots.txt' || path === '/favicon.ico')) {
      if (path === '/robots.txt') throw new HttpAnswer(200, { 'Content-Type': 'text/plain; charset=utf-8' }, 'User-agent: *\nAllow: /\n');
      throw this.notFound();
    }

    // How many leading segments name the site: `/<organization>/<basename>` on the reader's host,
    // `/<basename>` at an organization's host, none at a site's own hostname.
    const siteDepth = onReaderHost ? 2 : this.isOrganizationHost(host) ? 1 : 0;
    // A share link's key moves from the URL into a cookie for that site, then out of the address bar.
    const cookies = cookiesOf(req.headers.cookie);
    // An agent follows no redirect that sets a cookie: its credentials are read from the request as it is.
    const mcp = agent ? mcpRequestOf(path, url, req.headers, cookies) : undefined;
    const share = mcp ? undefined : shareLinkIn(path);
    if (share) {
      throw new HttpAnswer(303, {
        Location: localPath(`${share.siteRoot}${share.rest}${url.search}`),
        'Set-Cookie': siteCookie(SHARE_COOKIE, share.key, `${share.siteRoot}/`, this.secure),
        'Referrer-Policy': 'no-referrer',
      });
    }
    const jwt = mcp ? null : url.searchParams.get('jwt_token');
    if (jwt) {
      url.searchParams.delete('jwt_token');
      const siteRoot = siteRootOf(path, siteDepth);
      throw new HttpAnswer(303, {
        Location: localPath(`${path}${url.search}`),
        'Set-Cookie': siteCookie(VISITOR_COOKIE, jwt, `${siteRoot}/`, this.secure),
        'Referrer-Policy': 'no-referrer',
      });
    }
    const visitor: Visitor = mcp?.visitor ?? { shareKey: cookies.get(SHARE_COOKIE) || undefined, visitorToken: cookies.get(VISITOR_COOKIE) || undefined };

    const route = routeOf(mcp?.path ?? path);
    const content = await this.source.resolve(this.resolverUrl(onReaderHost, host, route.contentPath), visitor);
    if (!content) throw this.notFound();
    // another form of a site's address (`<reader>/<basename>` of earlier versions): moved for good, the query kept
    // (it may carry the visitor's share key from the cookie: never kept by a shared cache)
    if (content.redirect && content.redirectPermanent)
      throw new HttpAnswer(301, { Location: `${content.redirect}${url.search}`, 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'no-referrer' });
    if (content.redirect) throw new HttpAnswer(302, { Location: content.redirect });
    const site = await this.source.site(content, visitor);
    const origin = this.originOf(onReaderHost, host);
    const privateSite = site.visibility !== 'public';
    const common: Record<string, string> = {
      'Cache-Control': privateSite ? 'private, no-cache' : 'public, no-cache',
      ...(privateSite ? { 'X-Robots-Tag': 'noindex' } : {}),
      'Referrer-Policy': 'strict-origin-when-cross-origin',
    };
    const ctx = { source: this.source, content, site, visitor, origin };

    switch (route.kind) {
      case 'file':
        return serveFile(req, res, { source: this.source, access: content.access, fileId: route.fileId, name: route.name, privateSite, notFound: () => this.notFound() });
      case 'search':
        return this.send(req, res, await searchPage({ ...ctx, query: url.searchParams.get('q') ?? '', json: route.json }), common);
      case 'mcp':
        // The site's, at its root (where GitBook serves it), as the visitor may read the site.
        if (route.contentPath.replace(/\/+$/, '') !== site.basePath) throw this.notFound();
        return serveMcp(
          req,
          res,
          { ...ctx, markdownAt: (p) => this.markdownAt(p, { onReaderHost, host, siteDepth, site, visitor, origin }) },
          { ...common, 'Cache-Control': 'no-store' },
        );
      case 'site-file': {
        // Listings are the site's: asked for below a section or variant, they are not there.
        if (route.contentPath.replace(/\/+$/, '') !== site.basePath) throw this.notFound();
        const key = ['file', route.file, site.id, site.version, content.audience, await listingRevisions(this.source, content, site, visitor), origin].join('|');
        const out = await this.cached(key, async () => {
          const f = await siteFile(route.file, { ...ctx, llmsFullMaxBytes: this.options.llmsFullMaxBytes });
          return { body: f.body, contentType: f.contentType };
        });
        return this.send(req, res, out, common);
      }
      default: {
        const markdown = route.kind === 'markdown' || prefersMarkdown(req.headers.accept);
        const space = new SpaceView(content.basePath, await this.source.pages(content.access));
        const entries = space.entries;
        const entry = pageAtPath(entries, content.pathname);
        if (!entry) return this.missingPage(req, res, { content, site, space, path: content.pathname, fallback: url.searchParams.get('fallback') === 'root', common });
        // a page showing API references is another page once a spec it shows has a new version
        const apis = markdown ? new Map() : await pageApiSpecs(this.options.apiSpecs, this.source, content, entry);
        const specs = apiVersionsKey(apis);
        const key = [markdown ? 'md' : 'html', site.id, site.version, content.siteSpaceId, content.revisionId, entry.page.id, content.audience, origin, specs].join('|');
        const page = { ...ctx, space, entry, apiSpecs: this.options.apiSpecs, apis };
        const out = await this.cached(key, async () =>
          markdown
            ? { body: await renderPageMarkdown(page), contentType: 'text/markdown; charset=utf-8' }
            : { body: await renderPageHtml(page), contentType: 'text/html; charset=utf-8' },
        );
        return this.send(req, res, out, { ...common, Vary: 'Accept, Cookie', ...(markdown ? {} : { 'Content-Security-Policy': CSP }) });
      }
    }
  }

  /** A page's Markdown at a local path of a site, as its `.md` URL answers it for this visitor (the same cache). */
  private async markdownAt(
    path: string,
    at: { onReaderHost: boolean; host: string; siteDepth: number; site: SiteView; visitor: Visitor; origin: string },
  ): Promise<string | undefined> {
    const content = await this.source.resolve(this.resolverUrl(at.onReaderHost, at.host, path), at.visitor);
    if (!content || content.redirect || content.siteId !== at.site.id) return undefined;
    const space = new SpaceView(content.basePath, await this.source.pages(content.access));
    const entry = pageAtPath(space.entries, content.pathname);
    if (!entry) return undefined;
    const key = ['md', at.site.id, at.site.version, content.siteSpaceId, content.revisionId, entry.page.id, content.audience, at.origin].join('|');
    const page = { source: this.source, content, site: at.site, visitor: at.visitor, origin: at.origin, space, entry };
    const out = await this.cached(key, async () => ({ body: await renderPageMarkdown(page), contentType: 'text/markdown; charset=utf-8' }));
    return out.body.toString('utf8');
  }

  /** Whether the host is an organization's below the reader domain (`acme.docs.example.com`). */
  private isOrganizationHost(host: string): boolean {
    if (!this.publicDomain) return false;
    const h = host.toLowerCase();
    const label = h.endsWith(`.${this.publicDomain}`) ? h.slice(0, -this.publicDomain.length - 1) : '';
    return !!label && !label.includes('.');
  }

  /** The origin pages are served at: the reader's, an organization's host (the reader's scheme) or a site's own hostname (https). */
  private originOf(onReaderHost: boolean, host: string): string {
    if (onReaderHost) return this.publicOrigin;
    return this.isOrganizationHost(host) ? `${this.secure ? 'https' : 'http'}://${host}` : `https://${host}`;
  }

  /** The URL sites resolves: the address asked, never with the visitor's share key (the source sends it beside the URL). */
  private resolverUrl(onReaderHost: boolean, host: string, path: string): string {
    return `${this.originOf(onReaderHost, host)}${path}`;
  }

  /** No document page at this path: a group goes to its first page, a link page to its target; else a real 404. */
  private async missingPage(
    req: IncomingMessage,
    res: ServerResponse,
    input: { content: PublishedContent; site: SiteView; space: SpaceView; path: string; fallback: boolean; common: Record<string, string> },
  ): Promise<void> {
    const { content, site, space } = input;
    const node = input.path ? nodeAtPath(space.entries, input.path) : undefined;
    if (node?.page.type === 'group') {
      const first = firstDocument(node.page.pages);
      const href = first ? space.hrefOf(first) : undefined;
      if (href) throw new HttpAnswer(302, { Location: href });
    }
    if (node?.page.type === 'link' && node.page.target?.kind === 'url' && typeof node.page.target.url === 'string' && /^https?:\/\//.test(node.page.target.url)) {
      throw new HttpAnswer(302, { Location: node.page.target.url });
    }
    if (input.fallback) throw new HttpAnswer(302, { Location: `${content.basePath}/` });
    const body = messagePage({
      site,
      content,
      space,
      title: 'Page not found',
      main: `<div class="not-found"><h1>Page not found</h1><p>There is no page at this address in ${e(site.title)}.</p><p><a href="${e(content.basePath)}/">Go to the first page</a></p></div>`,
    });
    res.writeHead(404, {
      ...input.common,
      'Cache-Control': 'no-store',
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': CSP,
      'X-Content-Type-Options': 'nosniff',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  private async cached(key: string, render: () => Promise<{ body: string; contentType: string }>): Promise<Rendered> {
    const hit = this.rendered.get(key);
    if (hit) return hit;
    const out = await render();
    const body = Buffer.from(out.body);
    const entry: Rendered = { body, contentType: out.contentType, etag: etagOf(body), lastModified: new Date().toUTCString(), headers: {} };
    this.rendered.set(key, entry);
    return entry;
  }

  /** Sends a rendered answer, or 304 when the client holds it already. */
  private send(req: IncomingMessage, res: ServerResponse, out: Rendered | { body: string; contentType: string; status?: number }, headers: Record<string, string>): void {
    const r: Rendered =
      'etag' in out ? out : { body: Buffer.from(out.body), contentType: out.contentType, etag: etagOf(Buffer.from(out.body)), lastModified: new Date().toUTCString(), headers: {} };
    const status = 'status' in out && typeof out.status === 'number' ? out.status : 200;
    const base = { ...headers, ETag: r.etag, 'Last-Modified': r.lastModified, 'X-Content-Type-Options': 'nosniff' };
    if (status === 200 && notModified(req, r)) {
      res.writeHead(304, base);
      res.end();
      return;
    }
    res.writeHead(status, { ...base, 'Content-Type': r.contentType, 'Content-Length': String(r.body.length) });
    res.end(req.method === 'HEAD' ? undefined : r.body);
  }

  private asset(req: IncomingMessage, res: ServerResponse, path: string): void {
    const a = assetAt(path);
    if (!a) throw new HttpAnswer(404, { 'Content-Type': 'text/plain; charset=utf-8' }, 'Not found\n');
    const headers = { 'Cache-Control': 'public, max-age=31536000, immutable', ETag: a.etag, 'X-Content-Type-Options': 'nosniff' };
    if (req.headers['if-none-match'] === a.etag) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Type': a.contentType, 'Content-Length': String(a.body.length) });
    res.end(req.method === 'HEAD' ? undefined : a.body);
  }
}

/** The first `depth` segments of a path (`/acme/docs` of `/acme/docs/guide` at depth 2); '' at depth 0. */
export function siteRootOf(path: string, depth: number): string {
  const segments = path.split('/').filter(Boolean).slice(0, depth);
  return segments.length ? `/${segments.join('/')}` : '';
}

/** A path on this host: never `//host/…`, which a browser would take for another site. */
export function localPath(path: string): string {
  return `/${path.replace(/^[/\\]+/, '')}`;
}

function notModified(req: IncomingMessage, r: Rendered): boolean {
  const inm = req.headers['if-none-match'];
  if (inm) return inm.split(',').some((t) => t.trim().replace(/^W\//, '') === r.etag || t.trim() === '*');
  const ims = req.headers['if-modified-since'];
  if (!ims) return false;
  const since = Date.parse(ims);
  return Number.isFinite(since) && Date.parse(r.lastModified) <= since;
}

function firstDocument(pages: PageNode[] | undefined): PageNode | undefined {
  for (const p of pages ?? []) {
    if (p.type === 'document') return p;
    const inner = firstDocument(p.pages);
    if (inner) return inner;
  }
  return undefined;
}

export function createReader(options: ReaderOptions): Reader {
  return new Reader(options);
}
