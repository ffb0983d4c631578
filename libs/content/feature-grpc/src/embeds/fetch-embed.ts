import { invalid } from '@bindery/platform/errors';
import { isOutboundRefusal, outboundFailure, SafeFetch } from '@bindery/platform/outbound-http';
import { logger } from '@bindery/platform/telemetry';
import { contentEmbedsV1 as pb } from '@bindery/shared/contracts';
import { clean, summarizePage } from './embed-page';
import type { EmbedLimits } from './embed-settings';

export const EMBED_USER_AGENT = 'BinderyEmbed/1.0';

export interface EmbedFetchOptions {
  /** the outbound guard */
  fetch: SafeFetch;
  allowPrivate: boolean;
  limits: EmbedLimits;
}

/** An embed and whether the URL answered something to build it from (a fallback is remembered briefly). */
export interface FetchedEmbed {
  embed: pb.Embed;
  answered: boolean;
}

/** The text of a body's first `budget.left` bytes (the rest is not read: the connection is closed). */
async function prefixWithin(response: Response, budget: { left: number }): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (budget.left > 0) {
      const next = await reader.read();
      if (next.done) break;
      const chunk = next.value.subarray(0, budget.left);
      budget.left -= chunk.byteLength;
      text += decoder.decode(chunk, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text + decoder.decode();
}

const siteOf = (url: URL) => url.hostname.replace(/^www\./, '');

/** A URL's text as read (percent-escapes decoded where they are valid UTF-8). */
function readable(text: string): string {
  try {
    return decodeURI(text);
  } catch {
    return text;
  }
}

/** The embed of a URL that answered nothing to preview: a link named by the URL's host and path. */
export function linkEmbed(url: URL): pb.Embed {
  return { type: 'link', title: clean(readable(url.host + url.pathname.replace(/\/$/, ''))) ?? url.host, site: siteOf(url) };
}

interface OEmbed {
  type?: string;
  html?: string;
  title?: string;
  providerName?: string;
}

/** A JSON oEmbed answer (oembed.com, 2.3.4): its type, html, title and provider; anything else is no answer. */
async function readOEmbed(endpoint: string, options: EmbedFetchOptions, signal: AbortSignal, budget: { left: number }): Promise<OEmbed | undefined> {
  try {
    const response = await options.fetch(endpoint, {
      allowPrivate: options.allowPrivate,
      timeoutMs: options.limits.timeoutMs,
      signal,
      headers: { accept: 'application/json', 'user-agent': EMBED_USER_AGENT },
    });
    if (!response.ok) return void (await response.body?.cancel().catch(() => undefined));
    // a body cut by the budget is no JSON: JSON.parse refuses it
    const json = JSON.parse(await prefixWithin(response, budget)) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    return { type: str(json.type), html: str(json.html), title: str(json.title), providerName: str(json.provider_name) };
  } catch (err) {
    logger.info('embed: no oEmbed answer', { host: new URL(endpoint).host, error: (err as Error).name });
    return undefined;
  }
}

/**
 * Fetches a URL through the outbound guard (the guard's checks on every redirect, one budget of time
 * and bytes for the page and its oEmbed answer) and builds its embed: `rich` with the oEmbed
 * provider's html when the page names a JSON oEmbed endpoint answering a `rich` or `video` object;
 * `link` otherwise, titled by OpenGraph, Twitter or <title>. A URL the guard refuses is a 400 (the
 * host at most); a URL that fails, times out or answers no HTML is a link named by the URL.
 */
export async function fetchEmbed(url: URL, options: EmbedFetchOptions): Promise<FetchedEmbed> {
  const { limits } = options;
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const budget = { left: limits.maxBytes };
  let response: Response;
  try {
    response = await options.fetch(url.href, {
      allowPrivate: options.allowPrivate,
      timeoutMs: limits.timeoutMs,
      signal,
      headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5', 'user-agent': EMBED_USER_AGENT },
    });
  } catch (err) {
    if (isOutboundRefusal(err)) throw invalid(outboundFailure(err, 'The url', { timeoutMs: limits.timeoutMs }).message);
    logger.info('embed: the url could not be fetched', { host: url.host, error: (err as Error).name });
    return { embed: linkEmbed(url), answered: false };
  }
  const finalUrl = new URL(response.url || url.href);
  if (!response.ok || !/html/i.test(response.headers.get('content-type') ?? '')) {
    await response.body?.cancel().catch(() => undefined);
    return { embed: linkEmbed(url), answered: response.ok };
  }
  let html: string;
  try {
    html = await prefixWithin(response, budget);
  } catch (err) {
    logger.info('embed: the page could not be read', { host: url.host, error: (err as Error).name });
    return { embed: linkEmbed(url), answered: false };
  }
  const page = summarizePage(html, finalUrl.href);
  const oembed = page.oembed && budget.left > 0 ? await readOEmbed(page.oembed, options, signal, budget) : undefined;
  const base = {
    title: page.title ?? clean(oembed?.title) ?? linkEmbed(url).title,
    site: page.siteName ?? clean(oembed?.providerName) ?? siteOf(finalUrl),
    ...(page.icon ? { icon: page.icon } : {}),
  };
  if (oembed?.html && (oembed.type === 'rich' || oembed.type === 'video')) return { embed: { type: 'rich', ...base, html: oembed.html }, answered: true };
  return { embed: { type: 'link', ...base }, answered: true };
}
