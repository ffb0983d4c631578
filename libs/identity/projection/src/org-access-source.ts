import { internalCaller } from '@bindery/platform/grpc';
import type { IdentityClients } from '@bindery/identity/client';

/** A user's standing in an organization. */
export interface OrgAccess {
  /** null: a guest */
  role: string | null;
  teams: string[];
}

/** Where a projection of identity's events confirms what it cannot prove: identity itself. */
export interface OrgAccessSource {
  accessOf(organizationId: string, userId: string): Promise<OrgAccess | undefined>;
}

/** Where a copy of identity's team events confirms a "no such team": identity itself. */
export interface LiveTeamsSource {
  /** The live teams of the organization among `teamIds`. */
  liveTeams(organizationId: string, teamIds: string[]): Promise<string[]>;
}

export type IdentitySource = OrgAccessSource & LiveTeamsSource;

/** Identity's MembersService.GetMemberAccess and TeamsService.GetLiveTeams, called as the service itself. */
export function identityAccessSource(clients: Pick<IdentityClients, 'members' | 'teams'>, service: string): IdentitySource {
  const caller = internalCaller(service);
  return {
    async accessOf(organizationId, userId) {
      const a = await clients.members.getMemberAccess({ organizationId, userId }, { caller });
      return a.member ? { role: a.role ?? null, teams: a.teamIds } : undefined;
    },
    async liveTeams(organizationId, teamIds) {
      if (!teamIds.length) return [];
      return (await clients.teams.getLiveTeams({ organizationId, teamIds }, { caller })).teamIds;
    },
  };
}
