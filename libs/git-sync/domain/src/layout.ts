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

/** One entry of the tree a repository describes: a page (its Markdown file) or a group. */
export interface TreeEntry {
  kind: 'page' | 'group';
  title: string;
  /** the page's file, relative to the root (pages only) */
  file?: string;
  children: TreeEntry[];
}

/**
 * The tree of SUMMARY.md: `## Heading` opens a group, nested `* [Title](file.md)` bullets are pages and
 * their sub-pages. Links to other places than Markdown files of the repository are left out, and each file
 * counts once.
 */
export function parseSummary(text: string): TreeEntry[] {
  const top: TreeEntry[] = [];
  let group: TreeEntry | null = null;
  const stack: { indent: number; entry: TreeEntry }[] = [];
  const seen = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const heading = /^##+\s+(.*\S)\s*$/.exec(line);
    if (heading) {
      group = { kind: 'group', title: heading[1], children: [] };
      top.push(group);
      stack.length = 0;
      continue;
    }
    const bullet = /^(\s*)[*+-]\s+\[((?:[^\]\\]|\\.)*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/.exec(line);
    if (!bullet) continue;
    const indent = bullet[1].replace(/\t/g, '    ').length;
    let file: string;
    try {
      file = clean(decodeURIComponent(bullet[3].split('#')[0]));
    } catch {
      continue;
    }
    if (!file.endsWith('.md') || /^[a-z][a-z0-9+.-]*:/i.test(file) || file.split('/').includes('..') || seen.has(file)) continue;
    seen.add(file);
    const entry: TreeEntry = { kind: 'page', title: bullet[2].replace(/\\(.)/g, '$1'), file, children: [] };
    while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
    const parent = stack.length ? stack[stack.length - 1].entry : group;
    (parent ? parent.children : top).push(entry);
    stack.push({ indent, entry });
  }
  return top;
}

/** Files of the tree, in order. */
export function filesOf(entries: TreeEntry[]): string[] {
  return entries.flatMap((e) => [...(e.file ? [e.file] : []), ...filesOf(e.children)]);
}

/**
 * The full tree of a repository's Markdown files: SUMMARY.md's, with the readme first when SUMMARY.md
 * leaves it out, then every Markdown file it does not list (GitBook would ignore them), as top-level
 * pages in path order, `dir/README.md` before the pages of `dir/`.
 */
export function treeOfRepository(markdownFiles: string[], config: Pick<GitbookConfig, 'readme' | 'summary'>, summary: string | undefined): TreeEntry[] {
  const files = new Set(markdownFiles);
  const tree =
    summary === undefined
      ? []
      : parseSummary(summary).filter(function keep(e): boolean {
          e.children = e.children.filter(keep);
          return e.kind === 'group' || files.has(e.file!);
        });
  const listed = new Set(filesOf(tree));
  if (files.has(config.readme) && !listed.has(config.readme)) {
    tree.unshift({ kind: 'page', title: '', file: config.readme, children: [] });
    listed.add(config.readme);
  }
  const rest = [...files].filter((f) => !listed.has(f) && f !== config.summary).sort();
  for (const f of rest) tree.push({ kind: 'page', title: '', file: f, children: [] });
  return tree;
}

/** A page of a revision as export writes it. */
export interface ExportPage {
  id: string;
  type: 'document' | 'group' | 'link';
  title: string;
  slug: string;
  children: ExportPage[];
}

/**
 * Where each page of a tree is written: the first top-level page is the readme; a page with sub-pages is
 * `<dir>/<slug>/README.md`, another `<dir>/<slug>.md`; a group's pages live under `<group slug>/`. A
 * file the page was imported from (`known`) is kept when it still fits (the same folder role).
 */
export function exportPaths(pages: ExportPage[], readme: string, known: Record<string, string> = {}): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set<string>();
  const place = (p: ExportPage, dir: string, first: boolean) => {
    if (p.type === 'group') {
      p.children.forEach((c) => place(c, join(dir, p.slug), false));
      return;
    }
    if (p.type !== 'document') return;
    const hasChildren = p.children.length > 0;
    const prior = known[p.id];
    let file = first ? readme : hasChildren ? join(dir, p.slug, 'README.md') : join(dir, `${p.slug}.md`);
    if (prior && !taken.has(prior) && (first ? prior === readme : hasChildren ? prior.endsWith('/README.md') : !prior.endsWith('/README.md') || prior === readme)) file = prior;
    taken.add(file);
    out.set(p.id, file);
    const childDir = hasChildren ? file.replace(/\/?README\.md$/, '').replace(/\.md$/, '') : dir;
    p.children.forEach((c) => place(c, first ? dir : childDir, false));
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
      const file = paths.get(p.id);
      if (!file) continue;
      lines.push(`${'  '.repeat(depth)}* [${p.title.replace(/([[\]\\])/g, '\\$1')}](${encodeURI(file)})`);
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
