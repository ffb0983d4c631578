import type { RevisionRecord } from '@bindery/content/data-access';
import type { ImportedReusableContent, ReusableContentNode } from '@bindery/content/domain';
import { invalid } from '@bindery/platform/errors';
import { newId } from '@bindery/shared/ids';
import { contentRevisionsV1 as pb } from '@bindery/shared/contracts';

const MAX_REUSABLE_CONTENTS = 2_000;
const OID = /^[0-9a-f]{40,64}$/;

/**
 * ImportTreeRequest.reusable_contents: the tree's reusable contents, each keeping the id of the
 * base revision's one imported from the same source (so includes and links to it survive a re-import).
 * Absent: undefined (the base's are kept).
 */
export function checkReusableContents(contents: pb.ImportedReusableContents | undefined, base: readonly ReusableContentNode[] = []): ImportedReusableContent[] | undefined {
  if (!contents) return undefined;
  const value = contents.items;
  if (value.length > MAX_REUSABLE_CONTENTS) throw invalid(`there are more than ${MAX_REUSABLE_CONTENTS} reusable contents.`);
  const idOfSource = new Map(base.flatMap((r) => (r.git?.path ? [[r.git.path, r.id] as const] : [])));
  const sources = new Set<string>();
  return value.map((e, i) => {
    const at = `reusableContents[${i}]`;
    if (!e.source || e.source.length > 1024 || sources.has(e.source)) throw invalid(`${at}.source must be a unique path.`);
    sources.add(e.source);
    if (e.title !== undefined && e.title.length > 200) throw invalid(`${at}.title must be at most 200 characters.`);
    if (e.oid !== undefined && !OID.test(e.oid)) throw invalid(`${at}.oid must be a git blob id.`);
    return {
      id: idOfSource.get(e.source) ?? newId(),
      source: e.source,
      ...(e.title?.trim() ? { title: e.title.trim() } : {}),
      markdown: e.markdown,
      ...(e.oid !== undefined ? { oid: e.oid } : {}),
    };
  });
}

/** ImportTreeReply.reusable_contents: source → id, of the revision a retried import finds written, else of the request. */
export function reusableContentsReply(requested: readonly ImportedReusableContent[] | undefined, written?: RevisionRecord): Record<string, string> {
  if (written) return Object.fromEntries((written.reusableContents ?? []).flatMap((r) => (r.git?.path ? [[r.git.path, r.id]] : [])));
  return Object.fromEntries((requested ?? []).map((r) => [r.source, r.id]));
}
