import { ListedSpace, listedPages, pageMarkdown, pageUrl } from '@bindery/reader/render';
import type { PublishedContent, ReaderSource, SiteView } from './source';
import { renderContextFor, SpaceView } from './page-view';

/** A site space as read for a listing: what it lists, its content for this visitor, its pages. */
interface ListingSpace {
  listed: ListedSpace;
  content: PublishedContent;
  view: SpaceView;
}

/** The default bound on `llms-full.txt` (READER_LLMS_FULL_MAX_BYTES). */
export const LLMS_FULL_MAX_BYTES = 5 * 1024 * 1024;

const SEPARATOR = '\n\n';
/** Room usually enough for the closing note: pages stop being rendered there (the note's own size is checked after). */
const NOTE_RESERVE = 512;

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * `llms-full.txt`: the site's title and description, then every listed page's Markdown (not hidden,
 * not noIndex) in reading order — section by section, variant by variant, each page tree depth
 * first — each headed with its title and URL in its front matter (beside its description). At most `maxBytes` (UTF-8): the pages that would pass
 * it are left out, from the first that does not fit on, and a closing note says how many and where
 * to find them; the note and the last line break count in the bound. Pages past the bound are not rendered.
 */
export async function llmsFullTxt(input: { source: ReaderSource; site: SiteView; spaces: ListingSpace[]; origin: string; maxBytes?: number }): Promise<string> {
  const { source, site, spaces, origin } = input;
  const maxBytes = input.maxBytes ?? LLMS_FULL_MAX_BYTES;
  const head = [`# ${oneLine(site.title)}`, ...(site.description ? ['', `> ${oneLine(site.description)}`] : [])].join('\n');
  const parts = [head];
  let size = Buffer.byteLength(head);
  const all = spaces.flatMap((space) => listedPages(space.listed).map((entry) => ({ space, entry })));
  const sizes: number[] = [];
  for (const { space, entry } of all) {
    const doc = await source.document(space.content.access, entry.page.id);
    const ctx = await renderContextFor(source, space.content, site, space.view, doc, origin);
    const part = headed(pageMarkdown(entry.page, doc, ctx).trim(), [
      `title: ${JSON.stringify(oneLine(entry.page.title))}`,
      `url: ${pageUrl(space.listed, entry)}`,
      ...(space.listed.title ? [`section: ${JSON.stringify(oneLine(space.listed.title))}`] : []),
    ]);
    const bytes = Buffer.byteLength(SEPARATOR) + Buffer.byteLength(part);
    if (size + bytes + NOTE_RESERVE > maxBytes) break;
    parts.push(part);
    sizes.push(bytes);
    size += bytes;
  }
  if (sizes.length === all.length) return parts.join(SEPARATOR) + '\n';
  // The note's length depends on where it begins (the page's title and URL): its shorter forms when
  // it does not fit in full, and pages given back when none fits.
  const llmsTxtUrl = `${origin}${site.basePath}/llms.txt`;
  const notes = (written: number) => {
    const left = `Left out: ${all.length - written} of ${all.length} pages`;
    const next = all[written];
    return [
      `---\n\n${left}, from "${firstCodePoints(oneLine(next.entry.page.title), 80)}" (${pageUrl(next.space.listed, next.entry)}) on: this file is limited to ${maxBytes} bytes. ${llmsTxtUrl} lists every page's Markdown URL.`,
      `---\n\n${left}: this file is limited to ${maxBytes} bytes. ${llmsTxtUrl} lists every page's Markdown URL.`,
      `---\n\n${left}.`,
    ];
  };
  const room = (note: string) => Buffer.byteLength(SEPARATOR) + Buffer.byteLength(note) + 1;
  for (;;) {
    const forms = notes(sizes.length);
    const note = forms.find((n) => size + room(n) <= maxBytes);
    if (note !== undefined) return [...parts, note].join(SEPARATOR) + '\n';
    if (!sizes.length) {
      // only the site's title and description are left, and they do not leave room for the shortest note
      const shortest = forms[forms.length - 1];
      return `${firstBytes(head, maxBytes - room(shortest))}${SEPARATOR}${shortest}\n`;
    }
    parts.pop();
    size -= sizes.pop()!;
  }
}

/** The first `n` code points of a text (a pair of surrogates is never split). */
const firstCodePoints = (s: string, n: number) => Array.from(s).slice(0, n).join('');

/** The longest start of a text that takes at most `max` bytes in UTF-8 (whole characters only). */
function firstBytes(s: string, max: number): string {
  let out = '';
  let bytes = 0;
  for (const ch of s) {
    bytes += Buffer.byteLength(ch);
    if (bytes > max) break;
    out += ch;
  }
  return out;
}

/** A page's Markdown with these lines first in its front matter (a front matter made for them when it has none). */
function headed(markdown: string, lines: string[]): string {
  if (markdown.startsWith('---\n')) return `---\n${lines.join('\n')}\n${markdown.slice(4)}`;
  return `---\n${lines.join('\n')}\n---\n\n${markdown}`;
}
