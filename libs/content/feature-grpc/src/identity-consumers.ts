import { ApplyContext, EventHandlers, eventHandlers, on } from '@bindery/platform/events';
import { sessionOf } from '@bindery/platform/mongo';
import { IdentityEvents as I } from '@bindery/identity/client';
import { PrincipalKind } from '@bindery/content/domain';
import { ContentDeps, nowOf } from './content-deps';
import { grantEvent, keyOf } from './grant-events';

/**
 * Content's reactions to identity's events (besides the access projection): which teams exist, and
 * the grants of members who left and of teams that were deleted are withdrawn (the projection
 * already stops counting them; withdrawing keeps them from coming back with a later re-invitation).
 */
export function identityHandlers(deps: ContentDeps): EventHandlers {
  // Grants given after the event (a member invited back and granted again) stay.
  // In the consumer's transaction: the withdrawals and their events commit with the applied-event marker.
  const withdrawAll = async (organizationId: string, kind: PrincipalKind, id: string, before: string, ctx: ApplyContext) => {
    const session = sessionOf(ctx);
    for (const g of await deps.grants.allOfPrincipal(organizationId, kind, id, session)) {
      if (g.updatedAt > before) continue;
      await deps.grants.withdraw(keyOf(g), nowOf(deps), [grantEvent(organizationId, g, undefined)], session);
    }
  };
  return eventHandlers(
    on(I.teamCreated, (d, _e, ctx) => deps.teams.created(d.organizationId, d.teamId, sessionOf(ctx))),
    on(I.teamDeleted, async (d, e, ctx) => {
      await deps.teams.deleted(d.organizationId, d.teamId, sessionOf(ctx));
      await withdrawAll(d.organizationId, 'team', d.teamId, e.time, ctx);
    }),
    on(I.memberRemoved, (d, e, ctx) => withdrawAll(d.organizationId, 'user', d.userId, e.time, ctx)),
  );
}
