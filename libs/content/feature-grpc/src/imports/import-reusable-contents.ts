import type { RevisionRecord } from '@bindery/content/data-access';
import type { ImportedReusableContent, ReusableContentNode } from '@bindery/content/domain';
import { invalid } from '@bindery/platform/errors';
import { newId } from '@bindery/shared/ids';

const MAX_REUSABLE_CONTENTS = 2_000;
const OID = /^[0-9a-f]{40,64}$/;

/**
 * ImportTreeRequest.reusable_contents_json: the tree's reusable contents, each keeping the id of the
 * base revision's one imported from the same source (so includes and links to it survive a re-import).
 * Empty: undefined (the base's are kept).
 */
export function parseReusableContents(json: string, base: readonly ReusableContentNode[] = []): ImportedReusableContent[] | undefined {
  if (!json) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw invalid('reusable contents must be JSON.');
  }
  if (!Array.isArray(value)) throw invalid('reusable contents must be a list.');
  if (value.length > MAX_REUSABLE_CONTENTS) throw invalid(`there are more than ${MAX_REUSABLE_CONTENTS} reusable contents.`);
  const idOfSource = new Map(base.flatMap((r) => (r.git?.path ? [[r.git.path, r.id] as const] : [])));
  const sources = new Set<string>();
  return value.map((raw, i) => {
    const at = `reusableContents[${i}]`;
    const e = (raw ?? {}) as Record<string, unknown>;
    if (typeof e.source !== 'string' || !e.source || e.source.length > 1024 || sources.has(e.source)) throw invalid(`${at}.source must be a unique path.`);
    sources.add(e.source);
    if (e.title !== undefined && (typeof e.title !== 'string' || e.title.length > 200)) throw invalid(`${at}.title must be at most 200 characters.`);
    if (e.markdown !== undefined && typeof e.markdown !== 'string') throw invalid(`${at}.markdown must be a string.`);
    if (e.oid !== undefined && (typeof e.oid !== 'string' || !OID.test(e.oid))) throw invalid(`${at}.oid must be a git blob id.`);
    return {
      id: idOfSource.get(e.source) ?? newId(),
      source: e.source,
      ...(typeof e.title === 'string' && e.title.trim() ? { title: e.title.trim() } : {}),
      markdown: (e.markdown as string | undefined) ?? '',
      ...(typeof e.oid === 'string' ? { oid: e.oid } : {}),
    };
  });
}

/** ImportTreeReply.reusable_contents_json: {source: id}, of the revision a retried import finds written, else of the request. */
export function reusableContentsReply(requested: readonly ImportedReusableContent[] | undefined, written?: RevisionRecord): string {
  if (written) return JSON.stringify(Object.fromEntries((written.reusableContents ?? []).flatMap((r) => (r.git?.path ? [[r.git.path, r.id]] : []))));
  return JSON.stringify(Object.fromEntries((requested ?? []).map((r) => [r.source, r.id])));
}
