import type { ClientSession } from '@bindery/platform/mongo';
import { Caller } from '@bindery/platform/grpc';
import { assertCanAdminister, inviteId, newMembership, normalizeEmail, RoleOrGuest } from '@bindery/identity/domain';
import { nowIso } from '@bindery/shared/ids';
import { invalid } from '@bindery/platform/errors';
import { IdentityDeps } from './identity-deps';
import { identityEvents } from './identity-events';
import { loadVisible } from './organizations.service';

export interface Invitee {
  email: string;
  /** absent: the request's role */
  role?: RoleOrGuest;
}

/**
 * Invites addresses to an organization (admins only). Addresses of existing users become members at
 * once (an existing membership is left as it is); the others wait as pending invites until a user
 * with that address is created. Events: member.added / invite.created.
 */
export async function inviteMembers(
  deps: IdentityDeps,
  caller: Caller,
  organizationId: string,
  input: { invitees: Invitee[]; role?: RoleOrGuest; sso: boolean },
): Promise<{ userIds: string[]; invited: number }> {
  const { org, standing } = await loadVisible(deps, caller, organizationId);
  assertCanAdminister(standing);
  if (input.invitees.length > 100) throw invalid('emails: at most 100 addresses per request.');
  const byEmail = new Map<string, RoleOrGuest>();
  for (const inv of input.invitees) {
    const role = inv.role !== undefined ? inv.role : input.role !== undefined ? input.role : org.defaultRole;
    byEmail.set(normalizeEmail(inv.email), role);
  }
  const users = new Map((await deps.users.findManyByEmails([...byEmail.keys()])).map((u) => [u.email, u]));
  const now = nowIso();
  const userIds: string[] = [];
  for (const [email, role] of byEmail) {
    const user = users.get(email);
    if (user) {
      await deps.members.insert(newMembership({ organizationId, user, role, sso: input.sso, at: now }), [identityEvents.memberAdded(organizationId, user._id, role)]);
      userIds.push(user._id);
    } else {
      await deps.invites.upsert({ organizationId, email, role, sso: input.sso, invitedBy: caller.userId, createdAt: now }, [
        identityEvents.inviteCreated(organizationId, inviteId(organizationId, email)),
      ]);
    }
  }
  deps.eventsRecorded();
  return { userIds, invited: byEmail.size };
}

/**
 * Turns the pending invites of a new user's address into memberships. Idempotent: a membership that
 * already exists is kept, and an invite is marked accepted only after its membership exists.
 */
export async function acceptPendingInvites(deps: IdentityDeps, userId: string, email: string, session?: ClientSession): Promise<number> {
  const pending = await deps.invites.pendingFor(email, session);
  const user = pending.length ? await deps.users.findById(userId, session) : null;
  if (!user) return 0;
  const now = nowIso();
  for (const invite of pending) {
    await deps.members.insert(
      newMembership({ organizationId: invite.organizationId, user, role: invite.role, sso: invite.sso, at: now }),
      [identityEvents.memberAdded(invite.organizationId, userId, invite.role)],
      session,
    );
    await deps.invites.markAccepted(invite.organizationId, email, now, session);
  }
  if (pending.length) deps.eventsRecorded();
  return pending.length;
}
