import { invalid, notFound } from '@bindery/platform/errors';
import { TeamRecord, TeamRole } from '@bindery/identity/domain';
import { IdentityDeps } from './identity-deps';

/** A live team of the organization; 404 otherwise (another organization's team included). */
export async function loadTeam(deps: IdentityDeps, organizationId: string, teamId: string): Promise<TeamRecord> {
  const team = await deps.teams.find(organizationId, teamId);
  if (!team) throw notFound('Team');
  return team;
}

/** A user's role in a team, if they are in it. */
export async function roleInTeam(deps: IdentityDeps, organizationId: string, teamId: string, userId: string): Promise<TeamRole | undefined> {
  return (await deps.teams.findMember(organizationId, teamId, userId))?.role;
}

/** The invalid-input error naming `field` and the refused users (the first few). */
export function notMembersError(field: string, refs: string[]) {
  const shown =
    refs
      .slice(0, 5)
      .map((r) => JSON.stringify(r))
      .join(', ') + (refs.length > 5 ? ` and ${refs.length - 5} more` : '');
  return invalid(`${field}: ${shown} ${refs.length === 1 ? 'is not a member' : 'are not members'} of this organization.`);
}

/** User ids of those among `userIds` who are current members of the organization. */
export async function organizationMembersAmong(deps: IdentityDeps, organizationId: string, userIds: string[]): Promise<Set<string>> {
  return new Set((await deps.members.findMany(organizationId, userIds)).keys());
}

/** 400 naming `field` unless every user is a member of the organization. */
export async function assertOrganizationMembers(deps: IdentityDeps, organizationId: string, field: string, userIds: string[]): Promise<void> {
  const members = await organizationMembersAmong(deps, organizationId, userIds);
  const missing = userIds.filter((u) => !members.has(u));
  if (missing.length) throw notMembersError(field, missing);
}

/**
 * Resolves references to users (user ids, or e-mail addresses: anything with an @) to user ids.
 * Unknown addresses are reported as non-members, like unknown ids: the answer never tells whether
 * someone has an account on this instance.
 */
export async function resolveUserRefs(deps: IdentityDeps, field: string, refs: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const emails = refs.filter((r) => r.includes('@'));
  const users = emails.length ? await deps.users.findManyByEmails([...new Set(emails.map((e) => e.trim().toLowerCase()))]) : [];
  const byEmail = new Map(users.map((u) => [u.email, u._id]));
  const unknown: string[] = [];
  for (const ref of refs) {
    if (!ref.includes('@')) out.set(ref, ref);
    else {
      const id = byEmail.get(ref.trim().toLowerCase());
      if (id) out.set(ref, id);
      else unknown.push(ref);
    }
  }
  if (unknown.length) throw notMembersError(field, unknown);
  return out;
}
