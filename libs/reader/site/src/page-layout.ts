import { escapeHtml as e, PageCover, PageLayoutOptions, PageNode, RenderContext } from '@bindery/reader/render';

/** What a page shows around its content, from its stored layout options (GitBook's defaults where absent). */
export interface PageLayoutView {
  wide: boolean;
  title: boolean;
  description: boolean;
  /** the page tree beside the page (GitBook's `tableOfContents`) */
  nav: boolean;
  /** the outline of the page's headings */
  outline: boolean;
  pagination: boolean;
  /** the cover, across the top of the page (`full`, `background`) or above the title (`hero`) */
  cover?: { html: string; size: 'hero' | 'full' };
}

const DEFAULT_COVER_HEIGHT = 240;
const MIN_COVER_HEIGHT = 40;
const MAX_COVER_HEIGHT = 800;

const shown = (value: unknown) => value !== false;

/**
 * The cover's pictures: one for both themes, or a light and a dark one. `yPos` moves the picture up or
 * down from its centre (pixels); the box keeps its height while the picture loads, so nothing shifts.
 */
function coverHtml(cover: PageCover, ctx: RenderContext, size: 'hero' | 'full'): string | undefined {
  const light = cover.ref ? ctx.link(cover.ref)?.href : undefined;
  const dark = cover.refDark ? ctx.link(cover.refDark)?.href : undefined;
  if (!light && !dark) return undefined;
  const yPos = Number.isFinite(cover.yPos) ? Math.round(cover.yPos as number) : 0;
  const height = Number.isFinite(cover.height) ? Math.min(MAX_COVER_HEIGHT, Math.max(MIN_COVER_HEIGHT, Math.round(cover.height as number))) : DEFAULT_COVER_HEIGHT;
  const img = (href: string, cls: string) => `<img${cls ? ` class="${cls}"` : ''} src="${e(href)}" alt="" style="object-position:50% calc(50% + ${yPos}px)">`;
  const pictures = light && dark ? img(light, 'only-light') + img(dark, 'only-dark') : img((light ?? dark) as string, '');
  return `<div class="page-cover page-cover-${size}" style="height:${height}px">${pictures}</div>`;
}

export function pageLayoutOf(page: PageNode, ctx: RenderContext): PageLayoutView {
  const options: PageLayoutOptions = page.layout ?? {};
  // `background` (GitBook's third size) is shown full width too
  const size = options.coverSize === 'full' || (options.coverSize as string | undefined) === 'background' ? 'full' : 'hero';
  const html = shown(options.cover) && page.cover ? coverHtml(page.cover, ctx, size) : undefined;
  return {
    wide: options.width === 'wide',
    title: shown(options.title),
    description: shown(options.description),
    nav: shown(options.tableOfContents),
    outline: shown(options.outline),
    pagination: shown(options.pagination),
    ...(html ? { cover: { html, size } } : {}),
  };
}
