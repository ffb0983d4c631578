/**
 * A reusable content of a revision (the official RevisionReusableContent): a titled document that
 * pages include with a `reusable-content` block. A revision lists its reusable contents in its record
 * (a few per space); their documents are content-addressed records like pages' documents.
 */
export interface ReusableContentNode {
  id: string;
  title: string;
  /** the address of the document record (absent = empty) */
  document?: string;
  /** the file it was imported from (the path relative to the synced root) and that file's git blob id */
  git?: { path: string; oid?: string };
}

/** A reusable content an import brings: its file, its Markdown and, when the file says so, its title. */
export interface ImportedReusableContent {
  id: string;
  /** the file's path relative to the imported root, e.g. `.gitbook/includes/beta.md` */
  source: string;
  title?: string;
  markdown: string;
  /** the file's git blob id */
  oid?: string;
}

function normalized(segments: string[]): string {
  const out: string[] = [];
  for (const s of segments) {
    if (!s || s === '.') continue;
    if (s === '..') out.pop();
    else out.push(s);
  }
  return out.join('/');
}

/**
 * The reusable contents of an import by their files: an include's path resolves relative to the
 * including file (`../.gitbook/includes/x.md` from `guide/page.md`), then from the root.
 */
export class ReusableContentSources {
  private readonly byPath = new Map<string, string>();

  constructor(contents: ReadonlyArray<{ id: string; source: string }>) {
    for (const c of contents) this.byPath.set(normalized(c.source.split('/')), c.id);
  }

  get size(): number {
    return this.byPath.size;
  }

  /** The id of the reusable content `path` names, written in the file `from` (undefined: none). */
  resolve(path: string, from?: string): string | undefined {
    if (/^[a-z][a-z0-9+.-]*:/i.test(path)) return undefined;
    const segments = path.split('/').map(safeDecode);
    if (path.startsWith('/')) return this.byPath.get(normalized(segments));
    const dir = from ? from.split('/').slice(0, -1) : [];
    return this.byPath.get(normalized([...dir, ...segments])) ?? (from ? this.byPath.get(normalized(segments)) : undefined);
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The title of a reusable content whose file gives none: its file name without `.md`. */
export function titleFromSource(source: string): string {
  const name = source.split('/').pop() ?? '';
  return name.replace(/\.md$/i, '') || 'Untitled';
}

/**
 * The reusable contents of a merge of `theirs` into `ours` (both from `base`): the list is replaced
 * whole by an import, so whichever side changed it wins, ours when both did.
 */
export function mergeReusableContents(
  base: readonly ReusableContentNode[] | undefined,
  ours: readonly ReusableContentNode[] | undefined,
  theirs: readonly ReusableContentNode[] | undefined,
): ReusableContentNode[] {
  const same = (a: readonly ReusableContentNode[] | undefined, b: readonly ReusableContentNode[] | undefined) => JSON.stringify(a ?? []) === JSON.stringify(b ?? []);
  return [...((same(ours, base) ? theirs : ours) ?? [])];
}
