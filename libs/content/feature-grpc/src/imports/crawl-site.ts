import { isOutboundRefusal, outboundFailure, SafeFetch, textWithinBudget } from '@bindery/platform/outbound-http';
import { DomainError, invalid } from '@bindery/platform/errors';
import { logger } from '@bindery/platform/telemetry';
import robotsParser from 'robots-parser';
import type { CrawlLimits } from './import-settings';
import { parsePage, ParsedPage } from './html-to-markdown';

export const IMPORT_USER_AGENT = 'BinderyImporter';

export interface CrawledPage {
  /** the page's URL after redirects, without query or fragment */
  url: string;
  depth: number;
  parsed: ParsedPage;
}

export interface CrawlResult {
  pages: CrawledPage[];
  /** pages found but not stored: over a limit, refused by robots.txt, failing or not HTML */
  skipped: number;
  bytes: number;
}

export interface CrawlOptions {
  limits: CrawlLimits;
  allowPrivate: boolean;
  fetch: SafeFetch;
  /** called after each fetched page (progress) */
  onPage?(done: number, queued: number, bytes: number): Promise<void> | void;
}

/** The refusal of a start URL, for the person who sent it: the host at most, never the URL (it may hold credentials). */
export function refusalOf(err: unknown, what: string, timeoutMs: number): DomainError {
  if (err instanceof DomainError) return err;
  return invalid(outboundFailure(err, what, { timeoutMs, abortIsTimeout: true }).message);
}

/** The crawl's scope: the start URL's origin and its path up to the last slash. */
export function scopeOf(start: URL): { origin: string; prefix: string } {
  return { origin: start.origin, prefix: start.pathname.slice(0, start.pathname.lastIndexOf('/') + 1) };
}

export function normalized(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  copy.search = '';
  return copy.href;
}

/**
 * Crawls a website breadth first from `start`, within its origin and path prefix, through the outbound
 * guard: robots.txt (user agent BinderyImporter) honoured, at most `maxPages` HTML pages, `maxDepth`
 * links deep and `maxBytes` downloaded. A refused or failing start (robots.txt or the first page) is a
 * 400; a later page that fails is skipped.
 */
export async function crawlSite(start: URL, options: CrawlOptions): Promise<CrawlResult> {
  const { limits, fetch, allowPrivate } = options;
  const get = (url: string) => fetch(url, { allowPrivate, timeoutMs: limits.fetchTimeoutMs, headers: { accept: 'text/html,*/*;q=0.5', 'user-agent': IMPORT_USER_AGENT } });
  const budget = { left: limits.maxBytes };
  const scope = scopeOf(start);
  const robotsUrl = `${scope.origin}/robots.txt`;
  let robotsText = '';
  try {
    const response = await get(robotsUrl);
    robotsText = (response.ok && (await textWithinBudget(response, budget))) || '';
    if (!response.ok) await response.body?.cancel().catch(() => undefined);
  } catch (err) {
    if (isOutboundRefusal(err)) throw refusalOf(err, 'The url', limits.fetchTimeoutMs);
    // an unreachable robots.txt is no rule; the start page decides whether the site answers
  }
  const robots = robotsParser(robotsUrl, robotsText);
  const allowed = (url: string) => robots.isAllowed(url, IMPORT_USER_AGENT) !== false;
  const inScope = (url: URL) => url.origin === scope.origin && url.pathname.startsWith(scope.prefix);

  const first = normalized(start);
  if (!allowed(first)) throw invalid("The url is disallowed by the site's robots.txt.");
  const seen = new Set<string>([first]);
  const queue: Array<{ url: string; depth: number }> = [{ url: first, depth: 0 }];
  const pages: CrawledPage[] = [];
  let skipped = 0;
  while (queue.length) {
    const { url, depth } = queue.shift()!;
    if (pages.length >= limits.maxPages || budget.left <= 0) {
      skipped += 1;
      continue;
    }
    let response: Response;
    try {
      response = await get(url);
    } catch (err) {
      if (pages.length === 0 && url === first) throw refusalOf(err, 'The url', limits.fetchTimeoutMs);
      logger.warn('website import: a page could not be fetched', { host: new URL(url).host, error: (err as Error).name });
      skipped += 1;
      continue;
    }
    const finalUrl = new URL(response.url || url);
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || !/html/i.test(type) || !inScope(finalUrl)) {
      await response.body?.cancel().catch(() => undefined);
      if (url === first) throw invalid(response.ok ? 'The url does not answer an HTML page within its own site.' : `The url answered HTTP ${response.status}.`);
      skipped += 1;
      continue;
    }
    const html = await textWithinBudget(response, budget);
    if (html === undefined) {
      skipped += 1;
      continue;
    }
    const parsed = parsePage(html, finalUrl.href);
    const pageUrl = normalized(finalUrl);
    seen.add(pageUrl);
    pages.push({ url: pageUrl, depth, parsed });
    logger.info('website import: page fetched', { page: finalUrl.pathname, depth, pages: pages.length, queued: queue.length, bytes: limits.maxBytes - budget.left });
    await options.onPage?.(pages.length, queue.length, limits.maxBytes - budget.left);
    if (depth >= limits.maxDepth) continue;
    for (const link of parsed.links) {
      const target = new URL(link);
      const key = normalized(target);
      if (seen.has(key) || !inScope(target)) continue;
      seen.add(key);
      if (!allowed(key)) {
        skipped += 1;
        continue;
      }
      queue.push({ url: key, depth: depth + 1 });
    }
  }
  return { pages, skipped, bytes: limits.maxBytes - budget.left };
}
