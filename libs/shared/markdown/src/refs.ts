import type { ContentRef, ToDocumentOptions } from './types';

/** `http:`, `mailto:`, `tel:`… and protocol-relative `//host` destinations are external: they become url refs untouched. */
const ABSOLUTE = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

export function isAbsoluteUrl(href: string): boolean {
  return ABSOLUTE.test(href);
}

/** Link destination → reference, following ToDocumentOptions.resolveLink's contract (null: not a link). */
export function linkRef(href: string, options: ToDocumentOptions): ContentRef | null {
  if (isAbsoluteUrl(href)) return { kind: 'url', url: href };
  if (href.startsWith('#')) return href.length > 1 ? { kind: 'anchor', anchor: decodeSafe(href.slice(1)) } : null;
  if (!href) return null;
  return options.resolveLink?.(href) ?? null;
}

/** Image source → file ref when the caller knows the file, otherwise the source as a url ref. */
export function imageRef(src: string, options: ToDocumentOptions): ContentRef {
  if (!isAbsoluteUrl(src)) {
    const file = options.resolveFile?.(src);
    if (file) return file;
  }
  return { kind: 'url', url: src };
}

export function defaultHrefOf(ref: ContentRef): string {
  switch (ref.kind) {
    case 'url':
      return String(ref.url);
    case 'page':
      return `/pages/${ref.page}`;
    case 'anchor':
      return ref.page ? `/pages/${ref.page}#${ref.anchor}` : `#${ref.anchor}`;
    case 'file':
      return `/files/${ref.file}`;
    default: {
      const id = Object.entries(ref).find(([k]) => k !== 'kind' && k !== 'space')?.[1];
      return `/${ref.kind}/${String(id ?? '')}`;
    }
  }
}

function decodeSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
