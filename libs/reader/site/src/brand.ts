import type { CustomizationSettings, SiteView } from './source';
import { cssColor, DARK_BG, LIGHT_BG, mix, readableOn, contrast, AA_CONTRAST } from './brand-colors';

export interface Themed {
  light: string;
  dark: string;
}

/** A content reference as the customization holds it (header and footer links). */
export type LinkRef = Record<string, unknown>;

export interface BrandLink {
  title: string;
  to?: LinkRef;
}

export interface HeaderItem extends BrandLink {
  style: 'link' | 'button-primary' | 'button-secondary';
  links: BrandLink[];
}

/** What the reader applies of a site space's customization, every value checked. */
export interface Brand {
  custom: boolean;
  title: string;
  logo?: Themed;
  favicon?: { icon: Themed } | { emoji: string };
  primary?: Themed;
  tint?: Themed;
  corners: 'straight' | 'rounded' | 'circular';
  font?: string;
  monospaceFont?: string;
  headerLinks: HeaderItem[];
  footer: { logo?: Themed; copyright?: string; groups: Array<{ title: string; links: BrandLink[] }> };
  trademark: boolean;
  themeToggle: boolean;
  defaultTheme: 'light' | 'dark' | 'system';
  pagination: boolean;
  externalLinksInNewTab: boolean;
}

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** An absolute http(s) URL, or undefined: no other scheme is ever an image or an icon. */
export function safeImageUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const u = new URL(value);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/** A link destination: http(s), mailto, or a path of this host; `javascript:`, `data:` and the rest never. */
export function safeLinkUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  // a local path; `//host` and `/\host` lead to another host in a browser
  if (value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')) return value;
  try {
    const u = new URL(value);
    return ['https:', 'http:', 'mailto:'].includes(u.protocol) ? u.href : undefined;
  } catch {
    return undefined;
  }
}

function themedUrl(v: unknown): Themed | undefined {
  const t = obj(v);
  const light = safeImageUrl(t.light);
  const dark = safeImageUrl(t.dark) ?? light;
  return light && dark ? { light, dark } : undefined;
}

function themedColor(v: unknown): Themed | undefined {
  const t = obj(v);
  const light = cssColor(t.light);
  const dark = cssColor(t.dark) ?? light;
  return light && dark ? { light, dark } : undefined;
}

const links = (v: unknown): BrandLink[] =>
  arr(v)
    .map(obj)
    .filter((l) => str(l.title))
    .map((l) => ({ title: l.title as string, to: l.to && typeof l.to === 'object' ? (l.to as LinkRef) : undefined }));

/**
 * CustomizationFont → a font stack of the fonts' names with system fallbacks: the font is used where
 * the reader's device has it, nothing is downloaded. A custom font definition uses the system stack.
 */
const SANS = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const SERIF = 'Georgia, "Times New Roman", serif';
const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace';
const FONTS: Record<string, string> = {
  ABCFavorit: `"ABC Favorit", ${SANS}`,
  Inter: `Inter, ${SANS}`,
  Roboto: `Roboto, ${SANS}`,
  RobotoSlab: `"Roboto Slab", ${SERIF}`,
  OpenSans: `"Open Sans", ${SANS}`,
  SourceSansPro: `"Source Sans Pro", "Source Sans 3", ${SANS}`,
  Lato: `Lato, ${SANS}`,
  Ubuntu: `Ubuntu, ${SANS}`,
  Raleway: `Raleway, ${SANS}`,
  Merriweather: `Merriweather, ${SERIF}`,
  Overpass: `Overpass, ${SANS}`,
  NotoSans: `"Noto Sans", ${SANS}`,
  IBMPlexSerif: `"IBM Plex Serif", ${SERIF}`,
  Poppins: `Poppins, ${SANS}`,
  FiraSans: `"Fira Sans", ${SANS}`,
};
const MONO_FONTS: Record<string, string> = {
  FiraCode: `"Fira Code", ${MONO}`,
  IBMPlexMono: `"IBM Plex Mono", ${MONO}`,
  JetBrainsMono: `"JetBrains Mono", ${MONO}`,
  SourceCodePro: `"Source Code Pro", ${MONO}`,
  RobotoMono: `"Roboto Mono", ${MONO}`,
  SpaceMono: `"Space Mono", ${MONO}`,
  DMMono: `"DM Mono", ${MONO}`,
  Inconsolata: `Inconsolata, ${MONO}`,
};

/** The customization that applies to a site space of the site (its overrides, or the site's). */
export function settingsFor(site: SiteView, siteSpaceId: string | undefined): CustomizationSettings | undefined {
  const c = site.customization;
  if (!c) return undefined;
  return (siteSpaceId && c.siteSpaces[siteSpaceId]) || c.site;
}

/** The brand shown for a site space: every field checked, defaults where the settings have none. */
export function brandOf(site: SiteView, siteSpaceId: string | undefined): Brand {
  const s = settingsFor(site, siteSpaceId) ?? {};
  const styling = obj(s.styling);
  const header = obj(s.header);
  const footer = obj(s.footer);
  const themes = obj(s.themes);
  const favicon = obj(s.favicon);
  const corners = styling.corners === 'straight' || styling.corners === 'circular' ? styling.corners : 'rounded';
  const theme = themes.default === 'light' || themes.default === 'dark' ? themes.default : 'system';
  const icon = themedUrl(favicon.icon);
  const emoji = str(favicon.emoji);
  return {
    custom: !!site.customization?.custom || !!(siteSpaceId && site.customization?.siteSpaces[siteSpaceId]),
    title: str(s.title) ?? site.title,
    logo: themedUrl(header.logo),
    favicon: icon ? { icon } : emoji ? { emoji: [...emoji].slice(0, 16).join('') } : undefined,
    primary: themedColor(styling.primaryColor),
    tint: themedColor(obj(styling.tint).color),
    corners,
    font: typeof styling.font === 'string' ? FONTS[styling.font] : undefined,
    monospaceFont: typeof styling.monospaceFont === 'string' ? MONO_FONTS[styling.monospaceFont] : undefined,
    headerLinks: arr(header.links)
      .map(obj)
      .filter((h) => str(h.title))
      .map((h) => ({
        title: h.title as string,
        to: h.to && typeof h.to === 'object' ? (h.to as LinkRef) : undefined,
        style: h.style === 'button-primary' || h.style === 'button-secondary' ? h.style : 'link',
        links: links(h.links),
      })),
    footer: {
      logo: themedUrl(footer.logo),
      copyright: str(footer.copyright),
      groups: arr(footer.groups)
        .map(obj)
        .filter((g) => str(g.title))
        .map((g) => ({ title: g.title as string, links: links(g.links) })),
    },
    trademark: obj(s.trademark).enabled !== false,
    themeToggle: themes.toggeable !== false,
    defaultTheme: theme,
    pagination: obj(s.pagination).enabled !== false,
    externalLinksInNewTab: obj(s.externalLinks).target === 'blank',
  };
}

const RADII: Record<Brand['corners'], [string, string]> = { straight: ['0', '0'], rounded: ['6px', '8px'], circular: ['999px', '16px'] };
/** The reader's own text colours and panel (reader-css.ts), which a tint must keep readable. */
const LIGHT_TEXT = ['#1f2328', '#57606a'];
const DARK_TEXT = ['#e6edf3', '#9da7b3'];

/** The panel colour tinted as much as keeps the theme's text readable (at most 8 % of the tint). */
function tinted(tint: string, base: string, text: string[]): string {
  for (let amount = 0.08; amount > 0; amount -= 0.01) {
    const panel = mix(base, tint, amount);
    if (text.every((t) => contrast(t, panel) >= AA_CONTRAST)) return panel;
  }
  return base;
}

function themeVars(brand: Brand, dark: boolean): string[] {
  const bg = dark ? DARK_BG : LIGHT_BG;
  const vars: string[] = [];
  const panel = brand.tint ? tinted(dark ? brand.tint.dark : brand.tint.light, dark ? '#161b22' : '#f6f8fa', dark ? DARK_TEXT : LIGHT_TEXT) : undefined;
  if (panel) vars.push(`--panel: ${panel}`);
  if (brand.primary) {
    const primary = dark ? brand.primary.dark : brand.primary.light;
    const accent = mix(primary, bg, dark ? 0.75 : 0.85);
    vars.push(`--accent-bg: ${accent}`, `--link: ${readableOn(primary, [bg, accent, panel ?? (dark ? '#161b22' : '#f6f8fa')], dark)}`);
  }
  return vars;
}

/**
 * The site's brand as CSS custom properties, for a small inline <style>. Only values made here go in
 * (`#rrggbb` colours, radii and font stacks from fixed tables): never text of the settings.
 */
export function brandCss(brand: Brand): string {
  if (!brand.custom) return '';
  const [radius, radiusLg] = RADII[brand.corners];
  const common = [
    `--radius: ${radius}`,
    `--radius-lg: ${radiusLg}`,
    ...(brand.font ? [`--sans: ${brand.font}`] : []),
    ...(brand.monospaceFont ? [`--mono: ${brand.monospaceFont}`] : []),
  ];
  const light = themeVars(brand, false);
  const dark = themeVars(brand, true);
  const block = (vars: string[]) => vars.map((v) => `${v};`).join(' ');
  const rules = [`:root { ${block([...common, ...light])} }`];
  if (dark.length) rules.push(`@media (prefers-color-scheme: dark) { :root:not([data-theme="light"]) { ${block(dark)} } }`, `:root[data-theme="dark"] { ${block(dark)} }`);
  return rules.join('\n');
}
