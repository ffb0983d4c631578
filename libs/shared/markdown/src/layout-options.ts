import type { PageLayout as FrontmatterLayout } from './types';

/** The official RevisionPageLayoutOptions, every field of both releases. */
export interface LayoutOptions {
  width: 'default' | 'wide';
  cover: boolean;
  coverSize: 'hero' | 'full';
  coverMask: 'none' | 'radial';
  title: boolean;
  description: boolean;
  tableOfContents: boolean;
  outline: boolean;
  pagination: boolean;
  metadata: boolean;
  tags: boolean;
  actions: boolean;
  anchors: boolean;
}

/** What a page's layout is when nothing says otherwise. */
export const LAYOUT_DEFAULTS: LayoutOptions = {
  width: 'default',
  cover: true,
  coverSize: 'hero',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true,
};

const SECTIONS = ['title', 'description', 'tableOfContents', 'outline', 'pagination', 'metadata', 'tags', 'actions'] as const;

/** Front matter's `layout` (`title: {visible}`, `cover: {visible, size, mask}`) as layout options (only what it sets). */
export function layoutOptionsOf(layout: FrontmatterLayout): Partial<LayoutOptions> {
  const out: Partial<LayoutOptions> = {};
  if (layout.width) out.width = layout.width;
  if (layout.cover?.visible !== undefined) out.cover = layout.cover.visible;
  // `background` is a 0.202.0 size the options of 0.130.0 do not know: the default stands
  if (layout.cover?.size && layout.cover.size !== 'background') out.coverSize = layout.cover.size;
  if (layout.cover?.mask) out.coverMask = layout.cover.mask;
  for (const section of SECTIONS) {
    const visible = layout[section]?.visible;
    if (visible !== undefined) out[section] = visible;
  }
  return out;
}

/** Layout options as front matter writes them, only what differs from the defaults (undefined: nothing does). */
export function frontmatterLayoutOf(options: Partial<Record<keyof LayoutOptions, unknown>> | undefined): FrontmatterLayout | undefined {
  if (!options) return undefined;
  const differs = (key: keyof LayoutOptions) => options[key] !== undefined && options[key] !== LAYOUT_DEFAULTS[key];
  const out: Record<string, unknown> = {};
  if (differs('width')) out.width = options.width;
  const cover: Record<string, unknown> = {};
  if (differs('cover')) cover.visible = options.cover;
  if (differs('coverSize')) cover.size = options.coverSize;
  if (differs('coverMask')) cover.mask = options.coverMask;
  if (Object.keys(cover).length) out.cover = cover;
  for (const section of SECTIONS) if (differs(section)) out[section] = { visible: options[section] };
  return Object.keys(out).length ? (out as FrontmatterLayout) : undefined;
}
