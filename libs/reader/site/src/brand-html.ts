import { escapeHtml as e, PageNode } from '@bindery/reader/render';
import { Brand, BrandLink, brandCss, LinkRef, safeLinkUrl, Themed } from './brand';
import type { SiteSpaceView, SiteView } from './source';
import { siteSpaceOfSpace } from './structure';

/** Where the shell is: the site and the site space shown. */
export interface BrandPlace {
  site: SiteView;
  siteSpace: SiteSpaceView;
}

/** How the shell finds a page of the current space's navigation (for page references). */
export interface PageLinks {
  nav: PageNode[];
  hrefOf(page: PageNode): string | undefined;
}

function findPage(pages: PageNode[], id: string): PageNode | undefined {
  for (const p of pages) {
    if (p.id === id) return p;
    const found = p.pages ? findPage(p.pages, id) : undefined;
    if (found) return found;
  }
  return undefined;
}

/**
 * A header or footer link's destination, resolved as page links are: a URL (http(s), mailto or a
 * path; never `javascript:`), a page or anchor of this space, another space of the site (its root).
 */
export function hrefOfRef(ref: LinkRef | undefined, place: BrandPlace, pages: PageLinks): string | undefined {
  if (!ref) return undefined;
  const space = typeof ref.space === 'string' ? ref.space : undefined;
  if (space && space !== place.siteSpace.spaceId && ref.kind !== 'url') {
    const other = siteSpaceOfSpace(place.site, space);
    return other ? `${other.basePath}/` : undefined;
  }
  const pageHref = (id: unknown) => {
    const page = typeof id === 'string' ? findPage(pages.nav, id) : undefined;
    return page ? pages.hrefOf(page) : undefined;
  };
  switch (ref.kind) {
    case 'url':
      return safeLinkUrl(ref.url);
    case 'page':
      return pageHref(ref.page);
    case 'anchor': {
      if (typeof ref.anchor !== 'string') return undefined;
      const base = ref.page === undefined ? '' : pageHref(ref.page);
      return base === undefined ? undefined : `${base}#${encodeURIComponent(ref.anchor)}`;
    }
    case 'space':
      return `${place.siteSpace.basePath}/`;
    default:
      return undefined;
  }
}

const isExternal = (href: string) => /^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('mailto:');

function anchor(brand: Brand, href: string, title: string, className?: string): string {
  const external = isExternal(href);
  const target = external && brand.externalLinksInNewTab ? ' target="_blank"' : '';
  const rel = external ? ' rel="noopener"' : '';
  return `<a${className ? ` class="${className}"` : ''} href="${e(href)}"${target}${rel}>${e(title)}</a>`;
}

function linkItems(brand: Brand, items: BrandLink[], place: BrandPlace, pages: PageLinks): string {
  return items
    .map((l) => {
      const href = hrefOfRef(l.to, place, pages);
      return href ? `<li>${anchor(brand, href, l.title)}</li>` : '';
    })
    .join('');
}

/** The header's links and buttons; an item with links of its own is a disclosure listing them. */
export function headerLinks(brand: Brand, place: BrandPlace, pages: PageLinks): string {
  const items = brand.headerLinks.map((item) => {
    if (item.links.length) {
      const inner = linkItems(brand, item.links, place, pages);
      return inner ? `<li class="header-menu"><details><summary>${e(item.title)}</summary><ul>${inner}</ul></details></li>` : '';
    }
    const href = hrefOfRef(item.to, place, pages);
    if (!href) return '';
    const className = item.style === 'link' ? 'header-link' : `button ${item.style}`;
    return `<li>${anchor(brand, href, item.title, className)}</li>`;
  });
  const shown = items.filter(Boolean);
  return shown.length ? `<nav class="header-links" aria-label="Site links"><ul>${shown.join('')}</ul></nav>` : '';
}

/** A logo per theme (`only-light` / `only-dark`), its alternative text the site's title. */
export function themedImages(images: Themed, alt: string, className: string): string {
  if (images.light === images.dark) return `<img class="${className}" src="${e(images.light)}" alt="${e(alt)}">`;
  return `<img class="${className} only-light" src="${e(images.light)}" alt="${e(alt)}"><img class="${className} only-dark" src="${e(images.dark)}" alt="${e(alt)}">`;
}

/** The site's title in the header: its logo when it has one (the title as its text alternative). */
export function siteTitleContent(brand: Brand): string {
  return brand.logo ? themedImages(brand.logo, brand.title, 'site-logo') : e(brand.title);
}

/** `<link rel="icon">`: the icon per colour scheme, or the emoji drawn in an SVG. */
export function faviconLinks(brand: Brand): string {
  const f = brand.favicon;
  if (!f) return '';
  if ('emoji' in f) {
    const text = f.emoji.replace(/[<>&'"]/g, '');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">${text}</text></svg>`;
    return `<link rel="icon" href="data:image/svg+xml,${e(encodeURIComponent(svg))}">`;
  }
  if (f.icon.light === f.icon.dark) return `<link rel="icon" href="${e(f.icon.light)}">`;
  return `<link rel="icon" href="${e(f.icon.light)}" media="(prefers-color-scheme: light)"><link rel="icon" href="${e(f.icon.dark)}" media="(prefers-color-scheme: dark)">`;
}

/** The brand's inline stylesheet (custom properties only), or nothing for a site that set none. */
export function brandStyle(brand: Brand): string {
  const css = brandCss(brand);
  // The CSS holds only values brand.ts made (colours, radii, font stacks); `<` never occurs in them.
  return css && !css.includes('<') ? `<style>${css}</style>` : '';
}

/** The footer: logo, link groups, copyright, the page's Markdown, "Published with Bindery" unless the trademark is off. */
export function footerContent(brand: Brand, place: BrandPlace, pages: PageLinks, markdownUrl: string | undefined): string {
  const parts: string[] = [];
  if (brand.footer.logo) parts.push(`<div class="footer-logo">${themedImages(brand.footer.logo, brand.title, 'footer-logo-img')}</div>`);
  const groups = brand.footer.groups
    .map((g) => {
      const items = linkItems(brand, g.links, place, pages);
      return items ? `<div class="footer-group"><h2>${e(g.title)}</h2><ul>${items}</ul></div>` : '';
    })
    .filter(Boolean);
  if (groups.length) parts.push(`<nav class="footer-links" aria-label="Footer">${groups.join('')}</nav>`);
  if (brand.footer.copyright) parts.push(`<p class="copyright">${e(brand.footer.copyright)}</p>`);
  const line = [markdownUrl ? `<a href="${e(markdownUrl)}">This page in Markdown</a>` : '', brand.trademark ? 'Published with Bindery' : ''].filter(Boolean).join(' · ');
  if (!parts.length) return line;
  return `${parts.join('')}${line ? `<p>${line}</p>` : ''}`;
}
