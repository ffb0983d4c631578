import { execFileSync } from 'node:child_process';
import { createCipheriv, createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fixtureFiles } from './git-server-fixtures';

/**
 * Vendored GitBook repositories (fixtures/gitbook-repos/<name>/): the files as they are at the cited commit,
 * except the ones listed in `large-files.tsv`, which are not committed here and are regenerated at their real
 * size (deterministic pseudo-random bytes after the original's first bytes), so the repository served to git
 * sync has the same paths, sizes and duplicates as the real one.
 */

/** Size used for a file the snapshot lacked (it only holds files under 4 MiB): the lower bound of its size. */
export const ABSENT_FILE_SIZE = 4 * 1024 * 1024;

const NOT_REPOSITORY_FILES = new Set(['SOURCE.md', 'LICENSE', 'LICENSE.md', 'large-files.tsv']);

/** `size` bytes derived from `seed` only (AES-256-CTR over zeros), starting with `head`. */
export function pseudoRandomBytes(seed: string, size: number, head: Buffer = Buffer.alloc(0)): Buffer {
  const key = createHash('sha256').update(seed).digest();
  const out = createCipheriv('aes-256-ctr', key, Buffer.alloc(16)).update(Buffer.alloc(size));
  head.subarray(0, size).copy(out);
  return out;
}

export interface LargeFile {
  path: string;
  /** null: the snapshot lacked the file (4 MiB or more) */
  size: number | null;
  /** sha256 of the real content, or `git:<blob id>` when the snapshot lacked it */
  digest: string;
  head: Buffer;
}

export function largeFiles(dir: string): LargeFile[] {
  const manifest = path.join(dir, 'large-files.tsv');
  if (!fs.existsSync(manifest)) return [];
  return fs
    .readFileSync(manifest, 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [size, digest, head, file] = line.split('\t');
      return { path: file, size: size === '-' ? null : Number(size), digest, head: Buffer.from(head, 'hex') };
    });
}

/**
 * The repository's files (path → bytes): the committed ones and the regenerated large ones (left out with
 * `withLargeFiles: false`, which keeps the Markdown round trip measurable apart from the files).
 */
export function vendoredRepository(dir: string, { withLargeFiles = true } = {}): Record<string, Buffer> {
  const files = fixtureFiles(dir);
  for (const name of NOT_REPOSITORY_FILES) delete files[name];
  // one content per digest, so files that were identical stay identical
  if (withLargeFiles) for (const f of largeFiles(dir)) files[f.path] = pseudoRandomBytes(f.digest, f.size ?? ABSENT_FILE_SIZE, f.head);
  return files;
}

/** One entry of a SUMMARY.md: `* [title](target)` at some depth. */
export interface SummaryEntry {
  title: string;
  target: string;
  depth: number;
  /** an absolute URL: a link page */
  link: boolean;
}

export function summaryOf(markdown: string): { entries: SummaryEntry[]; groups: string[] } {
  const entries: SummaryEntry[] = [];
  const groups: string[] = [];
  for (const line of markdown.split('\n')) {
    const heading = /^##\s+(.+?)\s*$/.exec(line);
    if (heading) groups.push(heading[1]);
    const item = /^(\s*)[*-]\s+\[(.*)\]\(([^)\s]*)\)\s*$/.exec(line);
    if (item) entries.push({ title: item[2], target: item[3], depth: Math.floor(item[1].length / 2), link: /^[a-z][a-z+.-]*:\/\//i.test(item[3]) });
  }
  return { entries, groups };
}

/** A link target's path decoded (as written when it is not valid percent-encoding). */
export function decodedPath(target: string): string {
  try {
    return decodeURIComponent(target);
  } catch {
    return target;
  }
}

/** The slug a page's file names: `dir/page.md` → `page`, `dir/README.md` → `dir`, the root `README.md` → ''. */
export function fileSlug(target: string): string {
  const file = decodedPath(target.split('#')[0]);
  const parts = file.split('/');
  const base = parts[parts.length - 1];
  if (/^readme\.md$/i.test(base)) return parts.length > 1 ? parts[parts.length - 2] : '';
  return base.replace(/\.md$/i, '');
}

/** `git diff --numstat` (renames as a deletion and an addition) of a commit against its parent in a bare repository: path → [added, deleted]. */
export function numstat(bareRepository: string, commit: string): Record<string, [number, number]> {
  const out = execFileSync('git', ['diff', '--numstat', '--no-renames', '-z', `${commit}~1`, commit], { cwd: bareRepository, encoding: 'utf8', maxBuffer: 64 << 20 });
  const stat: Record<string, [number, number]> = {};
  for (const entry of out.split('\0').filter(Boolean)) {
    const [added, deleted, file] = entry.split('\t');
    stat[file] = [Number(added), Number(deleted)];
  }
  return stat;
}

/** A file whose last non-blank line is a plain paragraph line (a line appended right after it joins that paragraph). */
export function endsWithParagraph(markdown: string): boolean {
  const lines = markdown.replace(/\s+$/, '').split('\n');
  const last = lines[lines.length - 1] ?? '';
  const fences = lines.filter((l) => /^\s*(```|~~~)/.test(l)).length;
  return fences % 2 === 0 && /^[\p{L}\p{N}"'(*_]/u.test(last) && !/^(\*|\d+\.|[-+>#|<{])/.test(last.trim()) && !/[\\|]\s*$/.test(last);
}

/** The file with `sentence` appended to its last non-blank line (what appending it to the last paragraph gives). */
export function withSentenceAppended(file: string, sentence: string): string {
  const body = file.replace(/\s+$/, '');
  return `${body} ${sentence}${file.slice(body.length) || ''}`;
}

/** The longest run of words on a file's last non-blank line: what a page printed from that file still contains. */
export function lastLineWords(markdown: string): string {
  const last = markdown.replace(/\s+$/, '').split('\n').pop() ?? '';
  return (last.match(/[\p{L}\p{N} ,]{12,}/gu) ?? []).map((w) => w.trim()).sort((a, b) => b.length - a.length)[0] ?? last;
}

/** How many of `expected` are found in `actual`, each one used once (a multiset intersection). */
export function matchedCount(expected: string[], actual: string[]): number {
  const left = new Map<string, number>();
  for (const a of actual) left.set(a, (left.get(a) ?? 0) + 1);
  return expected.filter((e) => {
    const n = left.get(e) ?? 0;
    if (n > 0) left.set(e, n - 1);
    return n > 0;
  }).length;
}
