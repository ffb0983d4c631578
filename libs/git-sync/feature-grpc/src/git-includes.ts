import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { join } from '@bindery/git-sync/domain';
import type { Caller } from '@bindery/platform/grpc';
import { officialReusableContent } from '@bindery/content/client';
import type { RevisionReusableContent } from '@bindery/shared/pages';
import { documentToMarkdown, type Document } from '@bindery/shared/markdown';
import { documentFromMessage } from '@bindery/shared/contracts';
import { GitRepository } from './git-repository';
import { GitSyncDeps } from './git-sync.service';

/** Where GitBook keeps a space's reusable contents, relative to the synced root. */
export const INCLUDES = '.gitbook/includes/';

/** A reusable content as content's ImportTree takes it. */
export interface IncludeEntry {
  source: string;
  title?: string;
  markdown: string;
  oid: string;
}

/** The `title:` of a file's YAML front matter (GitBook writes a reusable content's title there), if any. */
export function frontMatterTitle(markdown: string): string | undefined {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(markdown);
  if (!m) return undefined;
  try {
    const title = (parseYaml(m[1]) as Record<string, unknown> | null)?.title;
    return typeof title === 'string' && title.trim() ? title.trim().slice(0, 200) : undefined;
  } catch {
    return undefined;
  }
}

/** The Markdown files under `.gitbook/includes/` of the root (paths relative to it), with their titles. */
export async function includesOf(repo: GitRepository, inRoot: Map<string, string>): Promise<IncludeEntry[]> {
  const files = [...inRoot].filter(([f]) => f.startsWith(INCLUDES) && f.toLowerCase().endsWith('.md')).sort(([a], [b]) => (a < b ? -1 : 1));
  const texts = await repo.readBlobs(files.map(([, oid]) => oid));
  return files.map(([source, oid]) => {
    const markdown = texts.get(oid)!.toString('utf8');
    const title = frontMatterTitle(markdown);
    return { source, ...(title ? { title } : {}), markdown, oid };
  });
}

const hash = (text: string) => createHash('sha256').update(text).digest('base64url');

/** What a reusable content's file is made of: its document (content-addressed), title and place. */
export const includePrint = (c: RevisionReusableContent, file: string) => hash(JSON.stringify([c.document ?? '', c.title, file]));

/** After an import: each reusable content's file and print, so an export leaves unchanged ones alone. */
export async function importedIncludes(deps: GitSyncDeps, spaceId: string, revisionId: string, idOfSource: Record<string, string>, caller: Caller) {
  const includes: Record<string, string> = {};
  const prints: Record<string, string> = {};
  for (const [source, id] of Object.entries(idOfSource)) {
    const reply = await deps.content.revisions.getReusableContent({ revision: { spaceId, revisionId, metadata: false }, reusableContentId: id }, { caller });
    includes[id] = source;
    prints[id] = includePrint(officialReusableContent(reply.reusableContent!), source);
  }
  return { includes, includePrints: prints };
}

/** A reusable content's file as GitBook writes it: the title in front matter, then the Markdown. */
export function includeFile(title: string, markdown: string): string {
  return `---\n${stringifyYaml({ title }, { lineWidth: 0 })}---\n\n${markdown.replace(/^\n+/, '')}`.replace(/\n*$/, '\n');
}

/** Content's `{% include "/reusable-content/<id>" %}` as the path of the reusable content's file, relative to `from`. */
export function relativeIncludes(markdown: string, from: string, includeFiles: Record<string, string>): string {
  const dir = posix.dirname(from);
  return markdown.replace(/\{% include "\/reusable-content\/([A-Za-z0-9_-]{8,64})" %\}/g, (all, id: string) =>
    includeFiles[id] ? `{% include "${posix.relative(dir === '.' ? '' : dir, includeFiles[id])}" %}` : all,
  );
}

function uniqueFile(title: string, taken: Set<string>): string {
  const slug =
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'reusable-content';
  let file = `${INCLUDES}${slug}.md`;
  for (let n = 2; taken.has(file); n += 1) file = `${INCLUDES}${slug}-${n}.md`;
  taken.add(file);
  return file;
}

export interface IncludesExport {
  /** the file of each reusable content, relative to the root */
  files: Record<string, string>;
  prints: Record<string, string>;
  /** full paths → text to write, or null to remove */
  changes: Map<string, string | null>;
}

/**
 * Export: each reusable content of the revision keeps the file it came from (or gets one under
 * `.gitbook/includes/`); only a reusable content whose print changed since the last sync is written
 * (while the remote is at the synced commit), and the file of one the revision no longer holds is removed.
 * `toFile` turns the Markdown's `/pages/…` and `/files/…` links into paths relative to the file.
 */
export async function exportIncludes(
  deps: GitSyncDeps,
  args: {
    spaceId: string;
    revisionId: string;
    caller: Caller;
    contents: RevisionReusableContent[];
    known: Record<string, string>;
    knownPrints: Record<string, string>;
    trusted: boolean;
    base: string;
    present: Map<string, string>;
    toFile: (markdown: string, file: string, files: Record<string, string>) => string;
  },
): Promise<IncludesExport> {
  const files: Record<string, string> = {};
  const taken = new Set<string>();
  for (const c of args.contents) {
    const file = args.known[c.id] ?? c.git?.path;
    if (!file || taken.has(file)) continue;
    files[c.id] = file;
    taken.add(file);
  }
  for (const c of args.contents) files[c.id] ??= uniqueFile(c.title, taken);
  const prints: Record<string, string> = {};
  const changes = new Map<string, string | null>();
  for (const c of args.contents) {
    const file = files[c.id];
    prints[c.id] = includePrint(c, file);
    if (args.trusted && args.knownPrints[c.id] === prints[c.id]) continue;
    const reply = await deps.content.revisions.getReusableContent(
      { revision: { spaceId: args.spaceId, revisionId: args.revisionId, metadata: false }, reusableContentId: c.id },
      { caller: args.caller },
    );
    const markdown = documentToMarkdown(documentFromMessage(reply.document!) as unknown as Document);
    changes.set(join(args.base, file), includeFile(c.title, relativeIncludes(args.toFile(markdown, file, files), file, files)));
  }
  const kept = new Set(Object.values(files).map((f) => join(args.base, f)));
  for (const file of Object.values(args.known)) {
    const full = join(args.base, file);
    if (!kept.has(full) && args.present.has(full)) changes.set(full, null);
  }
  return { files, prints, changes };
}
