import { forbidden, invalid } from '@bindery/platform/errors';
import { Caller, isInternalCaller } from '@bindery/platform/grpc';
import { IdentityDeps } from './identity-deps';

export interface MemberAccessView {
  member: boolean;
  role?: string;
  teamIds: string[];
}

/**
 * The user's standing in the organization as stored now, for another service's authorization (its
 * projection of identity's events confirms a "no" with this, and asks it for every decision while
 * it cannot prove it is current). Reads the database, never the access cache, so what identity has
 * acknowledged is what this answers. Service callers only: users learn about members through the
 * members API, with its own rules.
 */
export async function memberAccess(deps: IdentityDeps, caller: Caller, organizationId: string, userId: string): Promise<MemberAccessView> {
  if (!isInternalCaller(caller.userId)) throw forbidden('Only services may read member access.');
  const [member, teams] = await Promise.all([deps.members.find(organizationId, userId), deps.teams.rolesOf(organizationId, userId)]);
  if (!member) return { member: false, teamIds: [] };
  return { member: true, role: member.role ?? undefined, teamIds: [...teams.keys()].sort() };
}

const MAX_TEAMS_ASKED = 100;

/**
 * Which of `teamIds` are live teams of the organization as stored now, in the order asked: another
 * service's copy of identity's team events confirms a "no such team" with this (a team created a
 * moment ago). Reads the database. Service callers only.
 */
export async function liveTeams(deps: IdentityDeps, caller: Caller, organizationId: string, teamIds: string[]): Promise<string[]> {
  if (!isInternalCaller(caller.userId)) throw forbidden('Only services may read which teams are live.');
  const asked = [...new Set(teamIds)];
  if (asked.length > MAX_TEAMS_ASKED) throw invalid(`Ask about at most ${MAX_TEAMS_ASKED} teams at once.`);
  const live = await deps.teams.liveTeamIds(organizationId, asked);
  return asked.filter((id) => live.has(id));
}
