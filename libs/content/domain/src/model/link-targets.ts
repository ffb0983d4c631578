import type { ContentRef } from '@bindery/shared/markdown';
import { RevisionDraft } from './revision-draft';

type FileRef = { kind: 'file'; file: string };

function normalize(segments: string[]): string[] {
  const out: string[] = [];
  for (const s of segments) {
    if (!s || s === '.') continue;
    if (s === '..') out.pop();
    else out.push(s);
  }
  return out;
}

/** `guide/install.md`, `guide/README.md`, `guide/` → the slug path `guide/install`, `guide`. */
function slugPathOf(path: string): string {
  const parts = normalize(path.split('/').map((p) => safeDecode(p)));
  const last = parts[parts.length - 1];
  if (last && /^readme\.md$/i.test(last)) parts.pop();
  else if (last?.endsWith('.md')) parts[parts.length - 1] = last.slice(0, -3);
  return parts.join('/');
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * What a link written in Markdown points to, in the tree being written: `/pages/<id>`, `/pages/<slug
 * path>` (also Git-style `<slug>.md` and `<dir>/README.md`; `/pages/README.md` is the first page),
 * relative `./x.md` from the page's place, a batch-local page or file `ref`, `/files/<id>` and files by
 * name (`.gitbook/assets/x.png`). Anything else resolves to nothing: the link becomes plain text.
 */
export class LinkTargets {
  readonly pageRefs = new Map<string, string>();
  readonly fileRefs = new Map<string, string>();

  constructor(private readonly draft: RevisionDraft) {}

  hasRef(ref: string): boolean {
    return this.pageRefs.has(ref) || this.fileRefs.has(ref);
  }

  async resolveLinks(hrefs: string[], base: string): Promise<Map<string, ContentRef>> {
    const out = new Map<string, ContentRef>();
    for (const href of hrefs) {
      const ref = await this.link(href, base);
      if (ref) out.set(href, ref);
    }
    return out;
  }

  async resolveFiles(sources: string[]): Promise<Map<string, FileRef>> {
    const out = new Map<string, FileRef>();
    for (const src of sources) {
      const file = await this.file(src);
      if (file) out.set(src, { kind: 'file', file });
    }
    return out;
  }

  private async link(href: string, base: string): Promise<ContentRef | null> {
    const [path, anchor] = splitAnchor(href.trim());
    const page = await this.page(path, base);
    if (page) return anchor ? { kind: 'anchor', anchor, page } : { kind: 'page', page };
    const file = await this.file(path);
    return file && !anchor ? { kind: 'file', file } : null;
  }

  private async page(path: string, base: string): Promise<string | undefined> {
    const local = path.replace(/^\.\//, '').replace(/\.md$/, '');
    if (this.pageRefs.has(local)) return this.pageRefs.get(local);
    if (path.startsWith('/pages/')) {
      const rest = path.slice('/pages/'.length);
      if (!rest.includes('/') && !rest.endsWith('.md') && (await this.draft.page(rest))) return rest;
      const slugPath = slugPathOf(rest);
      if (!slugPath) return (await this.draft.root()).children[0];
      return (await this.draft.pageAtPath(slugPath))?.id;
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('/')) return undefined;
    const slugPath = slugPathOf(`${base}/${path}`);
    return slugPath ? (await this.draft.pageAtPath(slugPath))?.id : undefined;
  }

  private async file(src: string): Promise<string | undefined> {
    const local = src.replace(/^\.\//, '');
    if (this.fileRefs.has(local)) return this.fileRefs.get(local);
    if (src.startsWith('/files/')) {
      const id = safeDecode(src.slice('/files/'.length));
      return (await this.draft.file(id)) ? id : undefined;
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(src) || src.startsWith('#')) return undefined;
    const name = safeDecode(src.split('/').pop() ?? '');
    if (!name) return undefined;
    for (const f of this.draft.files.values()) if (f.name === name) return f.id;
    const stored = await this.draft.base.files();
    return stored.find((f) => f.name === name)?.id;
  }
}

function splitAnchor(href: string): [string, string | undefined] {
  const i = href.indexOf('#');
  return i < 0 ? [href, undefined] : [href.slice(0, i), href.slice(i + 1) || undefined];
}
