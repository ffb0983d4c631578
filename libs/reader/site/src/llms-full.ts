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
/** Room kept for the closing note. */
const NOTE_RESERVE = 512;

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * `llms-full.txt`: the site's title and description, then every listed page's Markdown (not hidden,
 * not noIndex) in reading order — section by section, variant by variant, each page tree depth
 * first — each headed with its title and URL in its front matter (beside its description). At most `maxBytes` (UTF-8): the pages that would pass
 * it are left out, from the first that does not fit on, and a closing note says how many and where
 * to find them. Pages past the bound are not rendered.
 */
export async function llmsFullTxt(input: { source: ReaderSource; site: SiteView; spaces: ListingSpace[]; origin: string; maxBytes?: number }): Promise<string> {
  const { source, site, spaces, origin } = input;
  const maxBytes = input.maxBytes ?? LLMS_FULL_MAX_BYTES;
  const head = [`# ${oneLine(site.title)}`, ...(site.description ? ['', `> ${oneLine(site.description)}`] : [])].join('\n');
  const parts = [head];
  let size = Buffer.byteLength(head);
  const all = spaces.flatMap((space) => listedPages(space.listed).map((entry) => ({ space, entry })));
  let written = 0;
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
    size += bytes;
    written++;
  }
  const left = all.length - written;
  if (left > 0) {
    const next = all[written];
    parts.push(
      `---\n\nLeft out: ${left} of ${all.length} pages, from "${oneLine(next.entry.page.title).slice(0, 80)}" (${pageUrl(next.space.listed, next.entry)}) on: this file is limited to ${maxBytes} bytes. ${origin}${site.basePath}/llms.txt lists every page's Markdown URL.`,
    );
  }
  return parts.join(SEPARATOR) + '\n';
}

/** A page's Markdown with these lines first in its front matter (a front matter made for them when it has none). */
function headed(markdown: string, lines: string[]): string {
  if (markdown.startsWith('---\n')) return `---\n${lines.join('\n')}\n${markdown.slice(4)}`;
  return `---\n${lines.join('\n')}\n---\n\n${markdown}`;
}
