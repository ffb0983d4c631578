import { emojiChar, escapeHtml as e, Heading, navTitle, PageNode } from '@bindery/reader/render';
import type { SectionView, SiteSpaceView, SiteView, StructureItem } from './source';
import { CSS_URL, JS_URL, KATEX_CSS_URL, KATEX_PRELOAD_FONTS, THEME_BOOTSTRAP } from './assets/assets';
import { brandOf } from './brand';
import { brandStyle, faviconLinks, footerContent, headerLinks, siteTitleContent } from './brand-html';

/** Where the reader is in a site: the site space shown, its section, the variants beside it. */
export interface Place {
  site: SiteView;
  section?: SectionView;
  siteSpace: SiteSpaceView;
  /** the site spaces of the current section (or of the site): more than one shows the switcher */
  variants: SiteSpaceView[];
  /** the path of the page being read in its space ('' for none), kept when switching variant */
  pagePath: string;
}

export interface Shell {
  place: Place;
  /** the page tree navigation shows (hidden pages already left out) */
  nav: PageNode[];
  /** false: no page tree beside the page (the page's layout hides it) */
  showNav?: boolean;
  /** the page's layout is wide: the content takes the outline's column (the outline goes above it) */
  wide?: boolean;
  /** HTML across the top of the page, above the columns (a full-width cover) */
  banner?: string;
  /** URL path of a page of the current space */
  hrefOf(page: PageNode): string | undefined;
  currentPageId?: string;
  title: string;
  description?: string;
  canonicalUrl?: string;
  markdownUrl?: string;
  noindex: boolean;
  hasMath: boolean;
  main: string;
  toc?: Heading[];
}

const pageIcon = (page: { emoji?: string }) => (page.emoji ? `<span class="emoji" aria-hidden="true">${e(emojiChar(page.emoji))}</span> ` : '');

function sectionLink(section: SectionView, current: SectionView | undefined): string {
  const on = current?.id === section.id;
  return `<a href="${e(section.basePath || '/')}/"${on ? ' aria-current="true"' : ''}>${e(section.title)}</a>`;
}

/** Section tabs, a section group as a disclosure listing its sections. */
function sectionsNav(items: StructureItem[], current: SectionView | undefined): string {
  if (!items.length) return '';
  const entries = items.map((item) => {
    if (item.kind === 'section') return `<li>${sectionLink(item.section, current)}</li>`;
    const open = item.group.sections.some((s) => s.id === current?.id);
    return `<li class="section-group"><details${open ? ' open' : ''}><summary>${e(item.group.title)}</summary><ul>${item.group.sections
      .map((s) => `<li>${sectionLink(s, current)}</li>`)
      .join('')}</ul></details></li>`;
  });
  return `<nav class="sections" aria-label="Sections"><ul>${entries.join('')}</ul></nav>`;
}

/**
 * The variant switcher: a disclosure of links (no script needed). Each link goes to the same page
 * in that variant; `fallback=root` sends the reader to the variant's first page when it has no such page.
 */
function variantSwitcher(place: Place): string {
  if (place.variants.length < 2) return '';
  const links = place.variants.map((v) => {
    const on = v.id === place.siteSpace.id;
    const href = place.pagePath ? `${v.basePath}/${place.pagePath}?fallback=root` : `${v.basePath}/`;
    return `<li><a href="${e(href)}"${on ? ' aria-current="page"' : ''}>${e(v.title)}</a></li>`;
  });
  return `<details class="variant-switcher"><summary><span class="visually-hidden">Variant: </span>${e(place.siteSpace.title)}</summary><ul aria-label="Variants">${links.join('')}</ul></details>`;
}

function pageTree(pages: PageNode[], shell: Shell, depth = 0): string {
  const items = pages.map((page) => {
    if (page.type === 'group') {
      return `<li class="nav-group"><span class="nav-group-title">${e(navTitle(page))}</span>${page.pages?.length ? pageTree(page.pages, shell, depth + 1) : ''}</li>`;
    }
    const href = shell.hrefOf(page);
    const current = page.id === shell.currentPageId;
    const link = href ? `<a href="${e(href)}"${current ? ' aria-current="page"' : ''}>${pageIcon(page)}${e(navTitle(page))}</a>` : `<span>${e(navTitle(page))}</span>`;
    return `<li>${link}${page.pages?.length ? pageTree(page.pages, shell, depth + 1) : ''}</li>`;
  });
  return `<ul>${items.join('')}</ul>`;
}

function outlineItems(headings: Heading[] | undefined): string | undefined {
  const shown = (headings ?? []).filter((h) => h.level <= 2);
  if (shown.length < 2) return undefined;
  return shown.map((h) => `<li class="level-${h.level}"><a href="#${e(h.id)}">${e(h.text)}</a></li>`).join('');
}

/** The outline beside the page (wide screens). */
function tableOfContents(headings: Heading[] | undefined): string {
  const items = outlineItems(headings);
  return items ? `<nav class="toc" aria-labelledby="toc-title"><h2 id="toc-title">On this page</h2><ul>${items}</ul></nav>` : '';
}

/** The same outline as a disclosure above the page, shown where the side outline is not (narrow screens). */
function outlineDisclosure(headings: Heading[] | undefined): string {
  const items = outlineItems(headings);
  return items ? `<details class="toc-inline"><summary>On this page</summary><nav aria-label="On this page"><ul>${items}</ul></nav></details>` : '';
}

const MENU_BUTTON = '<button type="button" class="nav-toggle" aria-expanded="false" aria-controls="site-nav"><span class="nav-toggle-icon" aria-hidden="true"></span>Menu</button>';

/** The whole page around `main`: header, section tabs, sidebar with the page tree and variants, table of contents. */
export function renderShell(shell: Shell): string {
  const { site, section } = shell.place;
  const brand = brandOf(site, shell.place.siteSpace.id);
  const siteTitle = brand.title;
  const pageTitle = shell.title === siteTitle ? siteTitle : `${shell.title} | ${siteTitle}`;
  const searchAction = `${shell.place.siteSpace.basePath}/~search`;
  const showNav = shell.showNav !== false;
  const layoutClass = ['layout', showNav ? '' : 'layout-no-nav', shell.wide ? 'layout-wide' : ''].filter(Boolean).join(' ');
  const meta = [
    shell.description ? `<meta name="description" content="${e(shell.description)}">` : '',
    shell.canonicalUrl ? `<link rel="canonical" href="${e(shell.canonicalUrl)}">` : '',
    shell.noindex ? '<meta name="robots" content="noindex">' : '',
    `<meta property="og:type" content="website"><meta property="og:site_name" content="${e(siteTitle)}"><meta property="og:title" content="${e(shell.title)}">`,
    shell.description ? `<meta property="og:description" content="${e(shell.description)}">` : '',
    shell.canonicalUrl ? `<meta property="og:url" content="${e(shell.canonicalUrl)}">` : '',
    '<meta name="twitter:card" content="summary">',
    shell.markdownUrl ? `<link rel="alternate" type="text/markdown" href="${e(shell.markdownUrl)}">` : '',
    shell.hasMath
      ? `<link rel="stylesheet" href="${KATEX_CSS_URL}">${KATEX_PRELOAD_FONTS.map((url) => `<link rel="preload" as="font" type="font/woff2" crossorigin href="${url}">`).join('')}`
      : '',
    faviconLinks(brand),
  ].join('');
  const themeAttr = `${brand.defaultTheme === 'system' ? '' : ` data-theme="${brand.defaultTheme}"`}${brand.themeToggle ? '' : ' data-theme-fixed'}`;
  const toggle = brand.themeToggle
    ? '<button type="button" class="theme-toggle" aria-pressed="false"><span class="when-light">Dark</span><span class="when-dark">Light</span><span class="visually-hidden"> theme</span></button>'
    : '';
  return `<!doctype html>
<html lang="en" class="no-js"${themeAttr}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(pageTitle)}</title>${meta}
<meta name="color-scheme" content="light dark"><script>${THEME_BOOTSTRAP}</script>
<link rel="stylesheet" href="${CSS_URL}">${brandStyle(brand)}<script defer src="${JS_URL}"></script></head>
<body><a class="skip-link" href="#content">Skip to content</a>
<header class="site-header">${showNav ? MENU_BUTTON : ''}<a class="site-title" href="${e(site.basePath)}/">${siteTitleContent(brand)}</a>${sectionsNav(site.structure, section)}${headerLinks(brand, shell.place, shell)}
<form class="search-form" role="search" action="${e(searchAction)}" method="get"><label class="visually-hidden" for="search-q">Search this site</label><input id="search-q" type="search" name="q" placeholder="Search…"><button type="submit">Search</button></form>
${toggle}</header>
${shell.banner ?? ''}<div class="${layoutClass}">${
    showNav
      ? `<nav class="sidebar" id="site-nav" aria-label="Pages"><button type="button" class="nav-close">Close menu</button>${variantSwitcher(shell.place)}${pageTree(shell.nav, shell)}</nav>`
      : ''
  }
<main id="content" tabindex="-1">${outlineDisclosure(shell.toc)}${shell.main}</main>${shell.wide ? '' : tableOfContents(shell.toc)}</div>
<footer class="site-footer">${footerContent(brand, shell.place, shell, shell.markdownUrl)}</footer>
</body></html>`;
}

export interface Crumb {
  title: string;
  href?: string;
}

/** The main column of a document page: breadcrumbs, title, description, content, previous / next. */
export function pageMain(input: {
  title: string;
  emoji?: string;
  description?: string;
  /** false: the title is kept for assistive technologies only (the page's layout hides it) */
  showTitle?: boolean;
  /** a cover above the title */
  cover?: string;
  crumbs: Crumb[];
  html: string;
  previous?: { title: string; href: string };
  next?: { title: string; href: string };
}): string {
  const crumbs = input.crumbs.length
    ? `<nav class="breadcrumbs" aria-label="Breadcrumb"><ol>${input.crumbs.map((c) => `<li>${c.href ? `<a href="${e(c.href)}">${e(c.title)}</a>` : e(c.title)}</li>`).join('')}</ol></nav>`
    : '';
  const pager =
    input.previous || input.next
      ? `<nav class="pagination" aria-label="Previous and next pages">${
          input.previous ? `<a rel="prev" href="${e(input.previous.href)}"><span class="label">Previous</span>${e(input.previous.title)}</a>` : '<span></span>'
        }${input.next ? `<a rel="next" href="${e(input.next.href)}"><span class="label">Next</span>${e(input.next.title)}</a>` : ''}</nav>`
      : '';
  return `${crumbs}<article>${input.cover ?? ''}<header class="page-header"><h1${input.showTitle === false ? ' class="visually-hidden"' : ''}>${input.emoji ? `${pageIcon(input)}` : ''}${e(input.title)}</h1>${
    input.description ? `<p class="page-description">${e(input.description)}</p>` : ''
  }</header><div class="document">${input.html}</div></article>${pager}`;
}

/** A page with no site around it (nothing published at that URL). */
export function bareShell(title: string, main: string): string {
  return `<!doctype html>
<html lang="en" class="no-js"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(title)}</title>
<meta name="robots" content="noindex"><meta name="color-scheme" content="light dark"><script>${THEME_BOOTSTRAP}</script><link rel="stylesheet" href="${CSS_URL}"></head>
<body><main id="content" class="not-found" style="max-width:40rem;margin:0 auto;padding:3rem 1.25rem">${main}</main></body></html>`;
}
