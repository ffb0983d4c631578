import { invalid } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { contentRevisionsV1 as pb } from '@bindery/shared/contracts';
import type { ContentDeps } from '../content-deps';
import { visibleSpace } from '../space-visibility';
import { storedRevision } from './revision-reads';
import { semanticChanges } from './semantic-changes';
import { StoredRevision } from './stored-revision';

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 1000;

/**
 * What a revision changed against its first parent (for a merge, the space's revision it was merged
 * into), as the official RevisionSemanticChange[]; a first revision is compared with the empty
 * revision, so its pages and files are all created. Readers of the space, and site tokens of it.
 */
export async function revisionChanges(deps: ContentDeps, caller: Caller, req: pb.RevisionChangesRequest): Promise<pb.RevisionChangesReply> {
  const limit = req.limit || DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw invalid(`limit must be between 1 and ${MAX_LIMIT}.`);
  const { space } = await visibleSpace(deps, caller, req.spaceId);
  const to = await storedRevision(deps, space, req.revisionId);
  const parentId = to.record.parents[0];
  const from = parentId
    ? await storedRevision(deps, space, parentId)
    : new StoredRevision(deps.objects, space._id, { _id: '', spaceId: space._id, parents: [], type: 'edits', createdAt: to.record.createdAt });
  const changes = await semanticChanges(from, to, (file) => deps.files.downloadUrlOf(space._id, file));
  return {
    changes: changes.slice(0, limit),
    more: Math.max(0, changes.length - limit),
    mergedFrom: to.record.mergedFrom || undefined,
  };
}
