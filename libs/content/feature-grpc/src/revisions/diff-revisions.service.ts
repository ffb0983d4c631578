import { invalid } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { contentRevisionsV1 as pb } from '@bindery/shared/contracts';
import type { ContentDeps } from '../content-deps';
import { visibleSpace } from '../space-visibility';
import { storedRevision } from './revision-reads';
import { semanticChanges } from './semantic-changes';

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 1000;

/** The semantic changes from one revision of a space to another (official RevisionSemanticChange[]). Readers of the space. */
export async function diffRevisions(deps: ContentDeps, caller: Caller, req: pb.DiffRevisionsRequest): Promise<pb.DiffRevisionsReply> {
  const limit = req.limit || DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw invalid(`limit must be between 1 and ${MAX_LIMIT}.`);
  if (!req.fromRevisionId || !req.toRevisionId) throw invalid('from_revision_id and to_revision_id are required.');
  const { space } = await visibleSpace(deps, caller, req.spaceId);
  const [from, to] = await Promise.all([storedRevision(deps, space, req.fromRevisionId), storedRevision(deps, space, req.toRevisionId)]);
  const changes = await semanticChanges(from, to, (file) => deps.files.downloadUrlOf(space._id, file));
  return { changes: changes.slice(0, limit), more: Math.max(0, changes.length - limit) };
}
