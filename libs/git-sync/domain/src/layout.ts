import { parse as parseYaml } from 'yaml';

/** `.gitbook.yaml`, with GitBook's defaults. */
export interface GitbookConfig {
  root: string;
  readme: string;
  summary: string;
  redirects: Record<string, string>;
}

const clean = (p: string) =>
  p
    .replace(/^\.?\/+/, '')
    .replace(/\/+$/, '')
    .replace(/^\.$/, '');

export function readGitbookConfig(text: string | undefined): GitbookConfig {
  const fallback: GitbookConfig = { root: '', readme: 'README.md', summary: 'SUMMARY.md', redirects: {} };
  if (!text) return fallback;
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch {
    throw new Error('.gitbook.yaml is not valid YAML');
  }
  const o = (doc && typeof doc === 'object' ? doc : {}) as Record<string, unknown>;
  const s = (o['structure'] && typeof o['structure'] === 'object' ? o['structure'] : {}) as Record<string, unknown>;
  const str = (v: unknown, d: string) => (typeof v === 'string' && v.trim() ? clean(v.trim()) : d);
  const redirects = Object.fromEntries(
    Object.entries((o['redirects'] && typeof o['redirects'] === 'object' ? o['redirects'] : {}) as Record<string, unknown>).filter(([, v]) => typeof v === 'string'),
  ) as Record<string, string>;
  return { root: str(o['root'], ''), readme: str(s['readme'], 'README.md'), summary: str(s['summary'], 'SUMMARY.md'), redirects };
}

/** One entry of the tree a repository describes: a page (its Markdown file), a link page or a group. */
export interface TreeEntry {
  kind: 'page' | 'group' | 'link';
  title: string;
  /** the page's file, relative to the root (pages only) */
  file?: string;
  /** where a link page leads (`* [Title](https://…)` in SUMMARY.md) */
  href?: string;
  /** a Markdown file SUMMARY.md does not list (imported hidden: kept, out of the navigation) */
  unlisted?: boolean;
  children: TreeEntry[];
}

const SUMMARY_BULLET = /^(\s*)[*+-]\s+\[((?:[^\]\\]|\\.)*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/;
/** A destination with a scheme (`https:`, `mailto:`): a link page, not a file of the repository. */
const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The tree of SUMMARY.md: `## Heading` opens a group, nested `* [Title](file.md)` bullets are pages and
 * their sub-pages, bullets to other places (`https://…`) are link pages. Each file counts once; other
 * destinations (files that are not Markdown, paths leaving the repository) are left out.
 */
export function parseSummary(text: string): TreeEntry[] {
  const top: TreeEntry[] = [];
  let group: TreeEntry | null = null;
  const stack: { indent: number; entry: TreeEntry }[] = [];
  const seen = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const heading = /^##+\s+(.*\S)\s*$/.exec(line);
    if (heading) {
      group = { kind: 'group', title: groupTitle(heading[1]), children: [] };
      top.push(group);
      stack.length = 0;
      continue;
    }
    const bullet = SUMMARY_BULLET.exec(line);
    if (!bullet) continue;
    const indent = bullet[1].replace(/\t/g, '    ').length;
    const title = bullet[2].replace(/\\(.)/g, '$1');
    let entry: TreeEntry;
    if (EXTERNAL.test(bullet[3])) {
      entry = { kind: 'link', title, href: bullet[3], children: [] };
    } else {
      let file: string;
      try {
        file = clean(decodeURIComponent(bullet[3].split('#')[0]));
      } catch {
        continue;
      }
      if (!file.endsWith('.md') || file.split('/').includes('..') || seen.has(file)) continue;
      seen.add(file);
      entry = { kind: 'page', title, file, children: [] };
    }
    while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
    const parent = stack.length ? stack[stack.length - 1].entry : group;
    (parent && parent.kind !== 'link' ? parent.children : top).push(entry);
    stack.push({ indent, entry });
  }
  return top;
}

/** A group heading's text without the anchor GitBook may append (`## Build <a href="#build" id="build"></a>`). */
const groupTitle = (text: string) => text.replace(/\s*<a\s+href="#[^"]*"\s+id="[^"]*"\s*><\/a>\s*$/i, '').trim() || text;

/**
 * A page's slug as GitBook derives it from its file: `dir/page.md` → `page`, `dir/README.md` → `dir`
 * (the root readme has none of its own: undefined). Lower case, other characters than letters, digits,
 * `.`, `_` and `-` become `-`.
 */
export function slugOfFile(file: string, readme = 'README.md'): string | undefined {
  const parts = file.split('/');
  const name = parts[parts.length - 1];
  const base = /^readme\.md$/i.test(name) ? parts[parts.length - 2] : file === readme ? undefined : name.replace(/\.md$/i, '');
  if (!base) return undefined;
  const slug = base
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
  return slug || undefined;
}

/** Files of the tree, in order. */
export function filesOf(entries: TreeEntry[]): string[] {
  return entries.flatMap((e) => [...(e.file ? [e.file] : []), ...filesOf(e.children)]);
}

/**
 * The full tree of a repository's Markdown files: SUMMARY.md's, with the readme first when SUMMARY.md
 * leaves it out, then every Markdown file it does not list (GitBook would ignore them), as top-level
 * pages in path order, `dir/README.md` before the pages of `dir/`, marked `unlisted` (without a
 * SUMMARY.md every file is listed).
 */
export function treeOfRepository(markdownFiles: string[], config: Pick<GitbookConfig, 'readme' | 'summary'>, summary: string | undefined): TreeEntry[] {
  const files = new Set(markdownFiles);
  const tree =
    summary === undefined
      ? []
      : parseSummary(summary).filter(function keep(e): boolean {
          e.children = e.children.filter(keep);
          return e.kind !== 'page' || files.has(e.file!);
        });
  const listed = new Set(filesOf(tree));
  if (files.has(config.readme) && !listed.has(config.readme)) {
    tree.unshift({ kind: 'page', title: '', file: config.readme, children: [] });
    listed.add(config.readme);
  }
  const rest = [...files].filter((f) => !listed.has(f) && f !== config.summary).sort();
  for (const f of rest) tree.push({ kind: 'page', title: '', file: f, unlisted: summary !== undefined, children: [] });
  return tree;
}

/** A page of a revision as export writes it. */
export interface ExportPage {
  id: string;
  type: 'document' | 'group' | 'link';
  title: string;
  slug: string;
  /** link pages: where they lead, as SUMMARY.md writes it */
  href?: string;
  children: ExportPage[];
}

/**
 * Where each page of a tree is written. A page keeps the file it was imported from or last exported to
 * (`known`) whatever its place, so an unchanged page is never moved nor its file removed, unless it
 * gained its first sub-pages in a file that is not a `README.md` (it moves to `<dir>/<slug>/README.md`). A page
 * without a file gets a new path: the first top-level page the readme, a page with sub-pages
 * `<dir>/<slug>/README.md`, another `<dir>/<slug>.md`, a group's pages under `<group slug>/`, sub-pages
 * beside their parent's file (in its folder when that is a `README.md`, else in `<parent>/`).
 */
export function exportPaths(pages: ExportPage[], readme: string, known: Record<string, string> = {}): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set<string>();
  // Known files first, so a new page can never take the file of a page placed after it.
  const claim = (list: ExportPage[]) =>
    list.forEach((p) => {
      const prior = known[p.id];
      // a page gaining its first sub-pages moves from `page.md` to `page/README.md`, as GitBook writes it; one
      // that had sub-pages in the repository already (a known child) stays where it is
      const fits = p.children.length === 0 || prior === readme || /(^|\/)README\.md$/.test(prior ?? '') || p.children.some((c) => known[c.id]);
      if (p.type === 'document' && prior && fits && !taken.has(prior)) {
        taken.add(prior);
        out.set(p.id, prior);
      }
      claim(p.children);
    });
  claim(pages);
  const free = (file: string) => {
    let candidate = file;
    for (let n = 2; taken.has(candidate); n += 1) candidate = file.replace(/(\/README)?\.md$/, (end) => `-${n}${end}`);
    taken.add(candidate);
    return candidate;
  };
  const place = (p: ExportPage, dir: string, first: boolean) => {
    if (p.type === 'group') {
      p.children.forEach((c) => place(c, join(dir, p.slug), false));
      return;
    }
    if (p.type !== 'document') return;
    const hasChildren = p.children.length > 0;
    let file = out.get(p.id);
    if (!file) {
      file = free(first && !taken.has(readme) ? readme : hasChildren ? join(dir, p.slug, 'README.md') : join(dir, `${p.slug}.md`));
      out.set(p.id, file);
    }
    const childDir = file === readme ? dir : /(^|\/)README\.md$/.test(file) ? file.replace(/\/?README\.md$/, '') : file.replace(/\.md$/, '');
    p.children.forEach((c) => place(c, childDir, false));
  };
  pages.forEach((p, i) => place(p, '', i === 0));
  return out;
}

/** Path segments joined with `/`, empty ones left out. */
export const join = (...parts: string[]) => parts.filter(Boolean).join('/');

/** SUMMARY.md for a tree whose files `exportPaths` chose. */
export function writeSummary(pages: ExportPage[], paths: Map<string, string>, groupOf: Record<string, string> = {}): string {
  const lines = ['# Table of contents', ''];
  const bullets = (list: ExportPage[], depth: number) => {
    for (const p of list) {
      const target = p.type === 'link' ? p.href : paths.has(p.id) ? encodeURI(paths.get(p.id)!) : undefined;
      if (!target) continue;
      lines.push(`${'  '.repeat(depth)}* [${p.title.replace(/([[\]\\])/g, '\\$1')}](${target})`);
      bullets(p.children, depth + 1);
    }
  };
  let inGroup = false;
  let imported: string | undefined;
  for (const p of pages) {
    // a top-level page imported from a SUMMARY.md group goes back under that group's heading
    if (p.type !== 'group' && groupOf[p.id] && groupOf[p.id] !== imported) {
      imported = groupOf[p.id];
      lines.push('', `## ${imported}`, '');
      bullets([p], 0);
      inGroup = true;
      continue;
    }
    if (p.type !== 'group' && imported && groupOf[p.id] === imported) {
      bullets([p], 0);
      continue;
    }
    imported = undefined;
    if (p.type === 'group') {
      lines.push('', `## ${p.title}`, '');
      bullets(p.children, 0);
      inGroup = true;
    } else {
      if (inGroup) lines.push('');
      bullets([p], 0);
    }
  }
  return lines.join('\n').replace(/\n{3,}/g, '\n\n') + '\n';
}
