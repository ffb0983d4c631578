import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { READER_CSS } from './reader-css';
import { READER_JS, THEME_BOOTSTRAP } from './reader-js';

/** Where the reader serves its own files: `~` never begins a site's basename. */
export const ASSET_PREFIX = '/~reader';

export interface Asset {
  body: Buffer;
  contentType: string;
  etag: string;
}

const hash = (data: string | Buffer) => createHash('sha256').update(data).digest('base64url').slice(0, 12);

function asset(body: string | Buffer, contentType: string): Asset {
  const buf = Buffer.isBuffer(body) ? body : Buffer.from(body);
  return { body: buf, contentType, etag: `"${hash(buf)}"` };
}

const css = asset(READER_CSS, 'text/css; charset=utf-8');
const js = asset(READER_JS, 'text/javascript; charset=utf-8');

/** The stylesheet's and script's URLs carry their content hash: they are cached for a year. */
export const CSS_URL = `${ASSET_PREFIX}/reader.${css.etag.slice(1, -1)}.css`;
export const JS_URL = `${ASSET_PREFIX}/reader.${js.etag.slice(1, -1)}.js`;
export const KATEX_CSS_URL = `${ASSET_PREFIX}/katex/katex.min.css`;
/**
 * KaTeX's most used fonts, preloaded beside its stylesheet on pages with maths: a formula laid out in a
 * fallback font grows when its font arrives and pushes the page down (a layout shift).
 */
export const KATEX_PRELOAD_FONTS = ['Main-Regular', 'Math-Italic', 'Size1-Regular', 'Size2-Regular', 'AMS-Regular'].map(
  (name) => `${ASSET_PREFIX}/katex/fonts/KaTeX_${name}.woff2`,
);

/** The CSP source of the inline theme script (it runs before the first paint, so it cannot wait for a file). */
export const THEME_SCRIPT_HASH = `'sha256-${createHash('sha256').update(THEME_BOOTSTRAP).digest('base64')}'`;
export { THEME_BOOTSTRAP };

let katexDir: string | undefined;
function katexDist(): string {
  katexDir ??= path.dirname(require.resolve('katex/dist/katex.min.css'));
  return katexDir;
}

const KATEX_TYPES: Record<string, string> = { '.css': 'text/css; charset=utf-8', '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf' };
const katexFiles = new Map<string, Asset | null>();

/** A file the reader serves under ASSET_PREFIX, or undefined. KaTeX's stylesheet and fonts come from its package. */
export function assetAt(urlPath: string): Asset | undefined {
  if (urlPath === CSS_URL) return css;
  if (urlPath === JS_URL) return js;
  const m = /^\/~reader\/katex\/((?:fonts\/)?[A-Za-z0-9_.-]+)$/.exec(urlPath);
  if (!m || m[1].includes('..')) return undefined;
  const type = KATEX_TYPES[path.extname(m[1])];
  if (!type) return undefined;
  if (!katexFiles.has(m[1])) {
    try {
      katexFiles.set(m[1], asset(readFileSync(path.join(katexDist(), m[1])), type));
    } catch {
      katexFiles.set(m[1], null);
    }
  }
  return katexFiles.get(m[1]) ?? undefined;
}
