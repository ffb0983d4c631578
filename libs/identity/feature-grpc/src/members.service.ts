import { invalid, notFound } from '@bindery/platform/errors';
import { Caller } from '@bindery/platform/grpc';
import { ClientSession, StaleRead } from '@bindery/platform/mongo';
import { nowIso } from '@bindery/shared/ids';
import {
  assertCanAdminister,
  assertCanChangeRole,
  assertCanRemoveMember,
  assertCanViewMember,
  canListMembers,
  lastAdminError,
  MemberRecord,
  RoleOrGuest,
  UserRecord,
} from '@bindery/identity/domain';
import { forbidden } from '@bindery/platform/errors';
import type { MemberQuery } from '@bindery/identity/data-access';
import { decodeCursor, Page, PageRequest, resolveLimit, toPage } from '@bindery/shared/pagination';
import { IdentityDeps } from './identity-deps';
import { identityEvents } from './identity-events';
import { loadVisible } from './organizations.service';

export interface MemberView {
  member: MemberRecord;
  user: UserRecord;
  teams: number;
}

/** Members of one organization with their users and team counts: two queries for a whole page. */
async function views(deps: IdentityDeps, organizationId: string, members: MemberRecord[]): Promise<MemberView[]> {
  const userIds = members.map((m) => m.userId);
  const [users, teams] = await Promise.all([deps.users.findManyByIds(userIds), deps.teams.countTeamsOfMany(organizationId, userIds)]);
  return members.flatMap((member) => {
    const user = users.get(member.userId);
    return user ? [{ member, user, teams: teams.get(member.userId) ?? 0 }] : [];
  });
}

async function loadMember(deps: IdentityDeps, organizationId: string, userId: string): Promise<MemberRecord> {
  const member = await deps.members.find(organizationId, userId);
  if (!member) throw notFound('Member');
  return member;
}

/** Lists an organization's members (non-guest members only), filtered, sorted and keyset-paginated. */
export async function listMembers(
  deps: IdentityDeps,
  caller: Caller,
  organizationId: string,
  query: { page: PageRequest; order?: string; sort?: string; role?: RoleOrGuest; search?: string },
): Promise<Page<MemberView>> {
  const { standing } = await loadVisible(deps, caller, organizationId);
  if (!canListMembers(standing)) throw forbidden('Guests cannot list the members of this organization.');
  const sort = query.sort || 'joinedAt';
  const order = query.order || 'desc';
  if (sort !== 'joinedAt' && sort !== 'lastSeenAt') throw invalid('sort must be "joinedAt" or "lastSeenAt".');
  if (order !== 'asc' && order !== 'desc') throw invalid('order must be "asc" or "desc".');
  const limit = resolveLimit(query.page.limit);
  const q: MemberQuery = { sort, order, role: query.role, search: query.search?.trim() || undefined };
  const { rows, count } = await deps.members.listForOrganization(organizationId, q, decodeCursor(query.page.page), limit);
  const page = toPage(
    rows,
    limit,
    count,
    (m) => ({ k: m[sort] as string, id: m._id }),
    (m) => m,
  );
  return { ...page, items: await views(deps, organizationId, page.items) };
}

export async function getMember(deps: IdentityDeps, caller: Caller, organizationId: string, userId: string): Promise<MemberView> {
  const { standing } = await loadVisible(deps, caller, organizationId);
  assertCanViewMember(standing, caller.userId, userId);
  const [view] = await views(deps, organizationId, [await loadMember(deps, organizationId, userId)]);
  if (!view) throw notFound('Member');
  return view;
}

/**
 * Runs a change to an organization's members that could take its last admin away, as one transaction
 * that (1) reads the organization's roster version, (2) makes the change, (3) refuses it if no admin
 * is left, and (4) raises the roster version only if it is still the one read. Two such changes at the
 * same moment therefore cannot both pass the check on the same roster: the second conflicts and runs
 * again on the roster the first left.
 */
function keepingAnAdmin<T>(deps: IdentityDeps, organizationId: string, change: (session: ClientSession) => Promise<T>): Promise<T> {
  return deps.transaction(async (session) => {
    const version = await deps.organizations.rosterVersion(organizationId, session);
    if (version === null) throw notFound('Organization');
    const result = await change(session);
    if ((await deps.members.countAdmins(organizationId, session)) === 0) throw lastAdminError();
    if (!(await deps.organizations.bumpRosterVersion(organizationId, version, session))) throw new StaleRead('The organization');
    return result;
  });
}

/**
 * Changes a member's role (admins; never raising one's own). The last admin keeps the role, even
 * against concurrent demotions and removals (`keepingAnAdmin`). Event: member.role_changed.
 */
export async function updateMemberRole(deps: IdentityDeps, caller: Caller, organizationId: string, userId: string, role: RoleOrGuest | undefined): Promise<MemberView> {
  const { standing } = await loadVisible(deps, caller, organizationId);
  const target = await loadMember(deps, organizationId, userId);
  if (role === undefined || role === target.role) {
    assertCanChangeRole(standing, caller.userId, userId, target.role, target.role);
    return getMember(deps, caller, organizationId, userId);
  }
  assertCanChangeRole(standing, caller.userId, userId, target.role, role);
  await keepingAnAdmin(deps, organizationId, async (session) => {
    // Decided on the membership as it is inside the transaction, not as it was read above.
    const current = await deps.members.find(organizationId, userId, session);
    if (!current) throw notFound('Member');
    if (current.role === role) return;
    await deps.members.update(organizationId, userId, { role }, [identityEvents.memberRoleChanged(organizationId, userId, role, current.role)], session);
  });
  deps.eventsRecorded();
  return getMember(deps, caller, organizationId, userId);
}

/** Removes a member (admins), or lets a member leave; never the last admin. False when the user was not a member. Event: member.removed. */
export async function removeMember(deps: IdentityDeps, caller: Caller, organizationId: string, userId: string): Promise<boolean> {
  const { standing } = await loadVisible(deps, caller, organizationId);
  assertCanRemoveMember(standing, caller.userId, userId);
  const removed = await keepingAnAdmin(deps, organizationId, (session) =>
    deps.members.update(organizationId, userId, { removedAt: nowIso() }, [identityEvents.memberRemoved(organizationId, userId)], session),
  );
  deps.eventsRecorded();
  return removed !== null;
}

/** Marks a member as an SSO member (admins). */
export async function setMemberSso(deps: IdentityDeps, caller: Caller, organizationId: string, userId: string): Promise<MemberView> {
  const { standing } = await loadVisible(deps, caller, organizationId);
  assertCanAdminister(standing);
  await loadMember(deps, organizationId, userId);
  await deps.members.update(organizationId, userId, { sso: true }, []);
  return getMember(deps, caller, organizationId, userId);
}
