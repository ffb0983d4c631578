import { notFound, precondition } from '@bindery/platform/errors';
import { assertCanCreateInOrganization, Pointer, childrenOf, subtreeOf } from '@bindery/content/domain';
import { ContentEvents as E } from '@bindery/content/client';
import { ContentDeps, nowOf, SOURCE } from './content-deps';
import { OrgView, principalOf } from './org-view';
import { placement } from './placement';
import { grantEvent, keyOf } from './grant-events';

/**
 * Moves a space, or a collection with everything inside it (deleted items included, so they can
 * still be restored), to another organization, keeping every id. It lands at the target's top level.
 * The caller needs the create role in both organizations (and admin on the item, checked before).
 * Grants follow only where they still make sense: a user's grant stays when the user is a member of
 * the target organization; team grants are withdrawn (teams belong to one organization), as are
 * grants of users who are not members there.
 */
export async function transferItems(deps: ContentDeps, source: OrgView, targetOrganizationId: string, top: Pointer): Promise<void> {
  if (targetOrganizationId === source.organizationId) throw precondition('The content already belongs to this organization.');
  const target = await principalOf(deps, targetOrganizationId, source.principal.userId);
  if (!target.member) throw notFound('Organization');
  assertCanCreateInOrganization(source.principal);
  assertCanCreateInOrganization(target);
  const from = source.organizationId;
  await deps.transaction(async (session) => {
    await deps.locks.take(from, session);
    await deps.locks.take(targetOrganizationId, session);
    const at = nowOf(deps);
    let collections: string[] = [];
    let spaces: string[] = [top.id];
    if (top.kind === 'collection') {
      const all = await deps.collections.ofOrganization(from, { includeDeleted: true, session });
      if (!all.some((c) => c._id === top.id && !c.deletedAt)) throw notFound('Collection');
      const children = childrenOf(all);
      collections = subtreeOf(top.id, children);
      spaces = (await deps.spaces.inCollections(from, collections, { includeDeleted: true, session })).map((s) => s._id);
    }
    const { position } = await placement(deps, targetOrganizationId, null, top, undefined, session);
    const topRepo = top.kind === 'space' ? deps.spaces : deps.collections;
    if (!(await topRepo.update(top.id, { parent: null, position } as never, [], [], session))) throw notFound(top.kind === 'space' ? 'Space' : 'Collection');
    await deps.spaces.transfer(spaces, targetOrganizationId, at, session, (id) => [
      E.spaceTransferred.create(SOURCE, id, { spaceId: id, fromOrganizationId: from, organizationId: targetOrganizationId }, targetOrganizationId),
    ]);
    await deps.collections.transfer(collections, targetOrganizationId, at, session, (id) =>
      id === top.id
        ? [
            E.collectionTransferred.create(
              SOURCE,
              id,
              { collectionId: id, fromOrganizationId: from, organizationId: targetOrganizationId, spaces, collections },
              targetOrganizationId,
            ),
          ]
        : [],
    );
    const targets = [...spaces.map((id) => ({ kind: 'space' as const, id })), ...collections.map((id) => ({ kind: 'collection' as const, id }))];
    const keep: string[] = [];
    for (const g of await deps.grants.onTargets(targets, session)) {
      const stays = g.principalKind === 'user' && (await deps.access.accessOf(targetOrganizationId, g.principalId)) !== undefined;
      if (stays) keep.push(g._id);
      else await deps.grants.withdraw(keyOf(g), at, [grantEvent(from, g, undefined)], session);
    }
    await deps.grants.moveTo(keep, targetOrganizationId, at, session);
  });
}
