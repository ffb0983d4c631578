import { isInternalCaller, type Caller } from '@bindery/platform/grpc';
import { forbidden, invalid } from '@bindery/platform/errors';
import { changeRequestsV1 as pb } from '@bindery/shared/contracts';
import { ChangeRequestsDeps } from './deps';

const MAX_SPACES = 1000;

/**
 * The counts a space's representation shows (its change requests by status, its open comments).
 * Only counts, and only to a service (the gateway asks, as itself, for the spaces content has just
 * shown the caller): a user's call could name spaces they cannot see, and this service does not
 * know who sees which space.
 */
export async function spaceCounts(deps: ChangeRequestsDeps, caller: Caller, req: pb.SpaceCountsRequest): Promise<pb.SpaceCountsResponse> {
  if (!isInternalCaller(caller.userId)) throw forbidden('Only services may read the counts of spaces.');
  const ids = [...new Set(req.spaceIds)];
  if (ids.length > MAX_SPACES) throw invalid(`At most ${MAX_SPACES} spaces at once.`);
  if (!ids.length) return { items: [] };
  const [byStatus, comments] = await Promise.all([deps.changeRequests.countsBySpace(ids), deps.comments.openCountsBySpace(ids)]);
  return {
    items: ids.map((id) => {
      const s = byStatus.get(id) ?? {};
      const total = Object.values(s).reduce((a, b) => a + b, 0);
      return { spaceId: id, changeRequests: total, changeRequestsOpen: s.open ?? 0, changeRequestsDraft: s.draft ?? 0, comments: comments.get(id) ?? 0 };
    }),
  };
}
