import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { listedPages, markdownUrl } from '@bindery/reader/render';
import type { PublishedContent, ReaderSource, SiteView, Visitor } from './source';
import { readSpaces } from './site-files';
import { shareLinkIn, VISITOR_COOKIE, SHARE_COOKIE } from './routes';
import { clientAddressOf, RateLimiter } from './rate-limit';

/**
 * The MCP server of a published site at `<site>/~gitbook/mcp` (where GitBook serves its own): the
 * Streamable HTTP transport of the official SDK, stateless (a server and a transport per request,
 * JSON answers), tools to search the site and read a page, the site's pages as resources.
 */

export const MCP_PATH = '/~gitbook/mcp';
/** A JSON-RPC request to this server is small; a body above this is refused (413). */
const MAX_BODY_BYTES = 256 * 1024;
const SEARCH_RESULTS = 20;

export const isMcpPath = (path: string): boolean => path.endsWith(MCP_PATH);

/**
 * The site path and the visitor of a request to an MCP endpoint. An agent sends no cookies on its
 * own and follows no redirect that sets one, so the credentials are read where it can put them: the
 * share link's own form (`<site>/~share/<key>/~gitbook/mcp`), a visitor token as
 * `Authorization: Bearer <jwt>` or `?jwt_token=`, else the site's cookies.
 */
export function mcpRequestOf(path: string, url: URL, headers: IncomingMessage['headers'], cookies: Map<string, string>): { path: string; visitor: Visitor } {
  const share = shareLinkIn(path);
  const bearer = /^Bearer\s+(\S+)$/i.exec(String(headers.authorization ?? ''))?.[1];
  return {
    path: share ? `${share.siteRoot}${share.rest}` : path,
    visitor: {
      shareKey: share?.key || cookies.get(SHARE_COOKIE) || undefined,
      visitorToken: bearer || url.searchParams.get('jwt_token') || cookies.get(VISITOR_COOKIE) || undefined,
    },
  };
}

export interface McpSite {
  source: ReaderSource;
  content: PublishedContent;
  site: SiteView;
  visitor: Visitor;
  origin: string;
  /** a page's Markdown (as its `.md` URL answers it) at a local path of this site, for this visitor */
  markdownAt(localPath: string): Promise<string | undefined>;
}

const jsonRpcError = (code: number, message: string) => JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });

/** Whether the client is past its rate: then it is answered 429 with the seconds until its next token. */
export function overLimit(req: IncomingMessage, res: ServerResponse, limiter: RateLimiter, addressHeader?: string): boolean {
  const wait = limiter.take(clientAddressOf(req, addressHeader));
  if (!wait) return false;
  res.writeHead(429, { 'Retry-After': String(wait), 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(jsonRpcError(ErrorCode.ConnectionClosed, 'Too many requests'));
  return true;
}

/** Answers one request to a site's MCP endpoint. */
export async function serveMcp(req: IncomingMessage, res: ServerResponse, site: McpSite, headers: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (req.method !== 'POST') {
    // Stateless: no stream for GET to open, no session for DELETE to end (the transport's spec: 405).
    res.writeHead(405, { Allow: 'POST', 'Content-Type': 'application/json' });
    res.end(jsonRpcError(ErrorCode.ConnectionClosed, 'Method not allowed: this server is stateless, send requests with POST'));
    return;
  }
  const body = await readJson(req);
  if (body === TOO_LARGE) {
    res.writeHead(413, { 'Content-Type': 'application/json' });
    res.end(jsonRpcError(ErrorCode.InvalidRequest, 'Request body too large'));
    return;
  }
  if (body === UNREADABLE) {
    res.writeHead(400, { 'Content-Type': 'application/json' });
    res.end(jsonRpcError(ErrorCode.ParseError, 'Parse error: the body is not JSON'));
    return;
  }
  const server = siteServer(site);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    transport.close().catch(() => undefined);
    server.close().catch(() => undefined);
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}

const TOO_LARGE = Symbol('too large');
const UNREADABLE = Symbol('unreadable');

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return TOO_LARGE;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return UNREADABLE;
  }
}

/**
 * The local path a page reference names on this site: an absolute URL at this site, a path below
 * the site's root (`install/docker`), or the whole local path; `.md` and `/` at the end, a query
 * and a fragment are ignored. Undefined for anything outside the site or any of the reader's own
 * addresses (`~…`).
 */
export function localPathOf(reference: string, origin: string, siteBasePath: string): string | undefined {
  let path: string;
  const ref = reference.trim();
  if (/^https?:\/\//i.test(ref)) {
    let url: URL;
    try {
      url = new URL(ref);
    } catch {
      return undefined;
    }
    if (url.origin !== origin) return undefined;
    path = url.pathname;
  } else {
    path = `/${ref.split(/[?#]/)[0].replace(/^\/+/, '')}`;
    if (path !== siteBasePath && !path.startsWith(`${siteBasePath}/`)) path = `${siteBasePath}${path}`;
  }
  if (path !== siteBasePath && !path.startsWith(`${siteBasePath}/`)) return undefined;
  if (path.endsWith('.md')) path = path.slice(0, -3);
  path = path.replace(/\/+$/, '');
  if (path.split('/').some((s) => s.startsWith('~'))) return undefined;
  return path || '/';
}

function siteServer(input: McpSite): McpServer {
  const { source, content, site, visitor, origin } = input;
  const siteUrl = `${origin}${site.basePath}`;
  const server = new McpServer(
    { name: `bindery-site-${site.id}`, title: site.title, version: '1.0.0' },
    {
      instructions: `The documentation published as "${site.title}" at ${siteUrl}/. Search it with searchDocumentation, read a page with getPage; every page is also a resource.`,
    },
  );

  server.registerTool(
    'searchDocumentation',
    {
      title: `Search ${site.title}`,
      description: `Searches the documentation of ${site.title}: the pages matching the query, each with its title, URL and an excerpt. Read a page with getPage.`,
      inputSchema: { query: z.string().min(1).max(200).describe('words to look for') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query }) => {
      const hits = (await source.search(content, query.trim(), visitor)).slice(0, SEARCH_RESULTS);
      if (!hits.length) return { content: [{ type: 'text', text: `No page of ${site.title} matches "${query}".` }] };
      const text = hits
        .map((h) => [`## ${h.title}`, `URL: ${origin}${h.path}`, ...(h.where ? [`In: ${h.where}`] : []), ...(h.snippet ? ['', h.snippet] : [])].join('\n'))
        .join('\n\n');
      return { content: [{ type: 'text', text }] };
    },
  );

  server.registerTool(
    'getPage',
    {
      title: 'Read a page',
      description: `Reads a page of ${site.title} as Markdown. Give its URL (as searchDocumentation answers it) or its path below ${siteUrl}/ (e.g. "getting-started/install").`,
      inputSchema: {
        url: z.string().max(2048).optional().describe('the page URL'),
        path: z.string().max(2048).optional().describe('the page path below the site’s URL'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ url, path }) => {
      const reference = url ?? path;
      const local = reference === undefined ? undefined : localPathOf(reference, origin, site.basePath);
      const page = local ? await input.markdownAt(local) : undefined;
      if (!page) return { isError: true, content: [{ type: 'text', text: reference ? `No page of ${site.title} at "${reference}".` : 'Give the page’s url or path.' }] };
      return { content: [{ type: 'text', text: page }] };
    },
  );

  server.registerResource(
    'pages',
    new ResourceTemplate(`${siteUrl}/{+path}`, {
      list: async () => {
        const spaces = await readSpaces(source, content, site, visitor, origin);
        return {
          resources: spaces.flatMap((space) =>
            listedPages(space.listed).map((entry) => ({
              uri: markdownUrl(space.listed, entry),
              name: entry.page.title,
              title: space.listed.title ? `${space.listed.title} › ${entry.page.title}` : entry.page.title,
              ...(entry.page.description ? { description: entry.page.description } : {}),
              mimeType: 'text/markdown',
            })),
          ),
        };
      },
    }),
    { title: `Pages of ${site.title}`, description: 'Each page of the site as Markdown', mimeType: 'text/markdown' },
    async (uri) => {
      const local = localPathOf(uri.href, origin, site.basePath);
      const page = local ? await input.markdownAt(local) : undefined;
      if (!page) throw new McpError(-32002, `Resource not found: ${uri.href}`);
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: page }] };
    },
  );
  return server;
}
