import { notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import type { ClientSession } from '@bindery/platform/mongo';
import { assertRole } from '@bindery/content/domain';
import type { ContentDeps } from './content-deps';
import { OrgView, spaceItem } from './org-view';

/** A live space and the caller's view of its organization; 404 unless the caller can at least read it. */
export async function visibleSpace(deps: ContentDeps, caller: Caller, spaceId: string, session?: ClientSession) {
  const space = await deps.spaces.findLive(spaceId, session);
  if (!space) throw notFound('Space');
  const view = await OrgView.load(deps, space.organizationId, caller.userId, { session });
  const role = view.roleOf(spaceItem(space));
  assertRole(role, 'read', 'space', 'Reading');
  return { space, view, role };
}
