import { isDomainError } from '@bindery/platform/errors';
import type { IdentityClients } from '@bindery/identity/client';
import { identityTeamsV1, identityV1 } from '@bindery/shared/contracts';
import type { Call } from './request-mapping';

/**
 * The users and teams behind content's grants, from identity, as the caller may see them: content
 * keeps ids only. Whoever identity does not show the caller is left out of the answer.
 */

/** The users among `userIds` that the caller may know, by id (one LookupUsers call). */
export async function usersById(identity: IdentityClients['identity'], userIds: string[], call: Call): Promise<Map<string, identityV1.User>> {
  if (!userIds.length) return new Map();
  const { users } = await identity.lookupUsers({ userIds: [...new Set(userIds)] }, call);
  return new Map(users.map((u) => [u.id, u]));
}

/**
 * The teams among `teamIds` that the caller may see in the organization, by id: one GetTeam each (a
 * space or collection has few team grants). A team that is gone or hidden from the caller is left out.
 */
export async function teamsById(teams: IdentityClients['teams'], organizationId: string, teamIds: string[], call: Call): Promise<Map<string, identityTeamsV1.Team>> {
  const found = await Promise.all(
    [...new Set(teamIds)].map((teamId) =>
      teams.getTeam({ organizationId, teamId }, call).catch((err: unknown) => {
        if (isDomainError(err) && (err.kind === 'not_found' || err.kind === 'forbidden')) return undefined;
        throw err;
      }),
    ),
  );
  return new Map(found.filter((t): t is identityTeamsV1.Team => t !== undefined).map((t) => [t.id, t]));
}
