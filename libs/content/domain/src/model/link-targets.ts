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
  /** imported files: the page of each source file, the file of each file path (normalised paths) */
  private readonly sourcePages = new Map<string, string>();
  private readonly sourceFiles = new Map<string, string>();

  constructor(private readonly draft: RevisionDraft) {}

  /** A page imported from the file at `path` (relative links of imported pages resolve to it). */
  addSource(path: string, page: string): void {
    this.sourcePages.set(normalize(path.split('/')).join('/'), page);
  }

  /** A file imported from `path` (image and file sources of imported pages resolve to it). */
  addSourceFile(path: string, file: string): void {
    this.sourceFiles.set(normalize(path.split('/')).join('/'), file);
  }

  hasRef(ref: string): boolean {
    return this.pageRefs.has(ref) || this.fileRefs.has(ref);
  }

  /** `source`: the file the Markdown was imported from; relative links resolve against it first. */
  async resolveLinks(hrefs: string[], base: string, source?: string): Promise<Map<string, ContentRef>> {
    const out = new Map<string, ContentRef>();
    for (const href of hrefs) {
      const ref = await this.link(href, base, source);
      if (ref) out.set(href, ref);
    }
    return out;
  }

  async resolveFiles(sources: string[], source?: string): Promise<Map<string, FileRef>> {
    const out = new Map<string, FileRef>();
    for (const src of sources) {
      const file = await this.file(src, source);
      if (file) out.set(src, { kind: 'file', file });
    }
    return out;
  }

  private async link(href: string, base: string, source?: string): Promise<ContentRef | null> {
    const [path, anchor] = splitAnchor(href.trim());
    const page = (path && this.imported(this.sourcePages, path, source, true)) || (await this.page(path, base));
    if (page) return anchor ? { kind: 'anchor', anchor, page } : { kind: 'page', page };
    const file = await this.file(path, source);
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

  /**
   * A relative path of an imported page, resolved against its source file among the imported sources
   * (a folder stands for its README.md; `x` for `x.md`); a path from the root also works.
   */
  private imported(map: Map<string, string>, path: string, source: string | undefined, pages: boolean): string | undefined {
    if (!map.size || /^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('/') || path.startsWith('#')) return undefined;
    const segments = path.split('/').map(safeDecode);
    const dir = source ? source.split('/').slice(0, -1) : [];
    for (const from of source ? [dir, []] : [[]]) {
      const at = normalize([...from, ...segments]).join('/');
      const found = map.get(at) ?? (pages ? (map.get(at ? `${at}/README.md` : 'README.md') ?? map.get(`${at}.md`)) : undefined);
      if (found) return found;
    }
    return undefined;
  }

  private async file(src: string, source?: string): Promise<string | undefined> {
    const imported = this.imported(this.sourceFiles, src, source, false);
    if (imported) return imported;
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
