import { invalid } from '@bindery/platform/errors';
import type { SpecSource, SpecVisibility } from './spec-records';
import { SPEC_VISIBILITIES } from './spec-records';

/** The reference's slug: 1..100 characters, lowercase words of letters and digits joined by single hyphens. */
export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
const SLUG = new RegExp(SLUG_PATTERN);

export function assertSlug(slug: string): void {
  if (slug.length < 1 || slug.length > 100 || !SLUG.test(slug)) {
    throw invalid('slug must be 1 to 100 lowercase letters, digits and single hyphens between them (e.g. "payments-api").');
  }
}

export const MAX_SOURCE_URL_LENGTH = 2048;

/**
 * The source of a request, checked: an http(s) URL of at most 2048 characters, or a text that is not
 * empty. A URL is kept in its normalised form (`URL.href`: scheme and host lower case, an international
 * host in punycode, other characters percent-encoded), an RFC 3986 URI as the answers' `format: uri` says.
 */
export function sourceOf(source: { text?: string; url?: string } | undefined, maxTextBytes: number): SpecSource {
  if (!source || (source.text === undefined) === (source.url === undefined)) throw invalid('source must be {"text": …} or {"url": …}.');
  if (source.text !== undefined) {
    if (!source.text.trim()) throw invalid('source.text is empty.');
    if (Buffer.byteLength(source.text) > maxTextBytes) throw invalid(`source.text is larger than ${maxTextBytes} bytes.`);
    return { kind: 'text', text: source.text };
  }
  const text = source.url!;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid('source.url is not a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('source.url must use http or https.');
  if (url.href.length > MAX_SOURCE_URL_LENGTH) throw invalid(`source.url is longer than ${MAX_SOURCE_URL_LENGTH} characters (once normalised).`);
  return { kind: 'url', url: url.href };
}

export function visibilityOf(value: string): SpecVisibility {
  if (!(SPEC_VISIBILITIES as readonly string[]).includes(value)) throw invalid('visibility must be "private" or "public".');
  return value as SpecVisibility;
}
