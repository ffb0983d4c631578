/**
 * Content negotiation of a page URL (RFC 9110 §12.5.1): HTML unless the client names Markdown at
 * least as highly as HTML.
 */

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

const MARKDOWN_TYPES = new Set(['text/markdown', 'text/x-markdown']);

/** The media ranges of an `Accept` header; a range with an unreadable weight is dropped. */
export function mediaRangesOf(accept: string): MediaRange[] {
  const out: MediaRange[] = [];
  for (const part of accept.split(',')) {
    const [range, ...params] = part.split(';').map((s) => s.trim());
    const m = /^([!#$%&'*+.^_`|~0-9a-z-]+)\/([!#$%&'*+.^_`|~0-9a-z-]+)$/i.exec(range ?? '');
    if (!m) continue;
    let q = 1;
    const weight = params.find((p) => /^q\s*=/i.test(p));
    if (weight !== undefined) {
      const value = weight.replace(/^q\s*=\s*/i, '');
      if (!/^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value)) continue;
      q = Number(value);
    }
    out.push({ type: m[1].toLowerCase(), subtype: m[2].toLowerCase(), q });
  }
  return out;
}

/**
 * The weight the client gives a media type: that of the most specific range matching it
 * (`type/subtype`, then `type/*`, then `*\/*`), 0 when none does; `explicit` when a range names it.
 */
export function weightOf(ranges: MediaRange[], mediaType: string, aliases: Set<string> = new Set([mediaType])): { q: number; explicit: boolean } {
  const [type] = mediaType.split('/');
  let best = { specificity: -1, q: 0 };
  for (const r of ranges) {
    const full = `${r.type}/${r.subtype}`;
    const specificity = aliases.has(full) ? 2 : r.type === type && r.subtype === '*' ? 1 : full === '*/*' ? 0 : -1;
    if (specificity < 0) continue;
    if (specificity > best.specificity || (specificity === best.specificity && r.q > best.q)) best = { specificity, q: r.q };
  }
  return { q: best.q, explicit: best.specificity === 2 };
}

/**
 * Whether a page URL answers Markdown: only when the client names `text/markdown` (a wildcard
 * never chooses it: HTML stays the default) with a weight above 0 and at least that of `text/html`.
 */
export function prefersMarkdown(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = mediaRangesOf(accept);
  const markdown = weightOf(ranges, 'text/markdown', MARKDOWN_TYPES);
  if (!markdown.explicit || markdown.q <= 0) return false;
  return markdown.q >= weightOf(ranges, 'text/html').q;
}
