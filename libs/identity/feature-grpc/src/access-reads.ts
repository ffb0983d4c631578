import { ChangeFeed, Db, ReadCache, watchChanges } from '@bindery/platform/mongo';
import { OrganizationRecord, Standing } from '@bindery/identity/domain';
import { COLLECTIONS, MembersRepository, OrganizationsRepository, TeamsRepository } from '@bindery/identity/data-access';

/**
 * What nearly every identity call reads first: the organization and the caller's standing in it
 * (role, and whether they own a team). Served from memory, kept correct by a change stream over the
 * collections they derive from — a change made by any replica invalidates the entries it touches
 * within milliseconds — and cleared outright after this replica's own writes, so a caller always
 * reads what they just wrote. With no live stream (at start, after a break) nothing is cached.
 */
export interface AccessReads {
  organization(organizationId: string): Promise<OrganizationRecord | null>;
  /** undefined when the user is not a member */
  standing(organizationId: string, userId: string): Promise<Standing | undefined>;
  /** Forgets everything (after a local write). */
  clear(): void;
  close(): Promise<void>;
}

export function accessReads(db: Db, repos: { organizations: OrganizationsRepository; members: MembersRepository; teams: TeamsRepository }, ttlMs: number): AccessReads {
  const load = {
    organization: (organizationId: string) => repos.organizations.findById(organizationId),
    standing: async (organizationId: string, userId: string): Promise<Standing | undefined> => {
      const [member, ownsTeam] = await Promise.all([repos.members.find(organizationId, userId), repos.teams.ownsAnyTeam(organizationId, userId)]);
      return member ? { role: member.role, ownsTeam } : undefined;
    },
  };
  if (ttlMs <= 0) return { ...load, clear: () => undefined, close: async () => undefined };

  // Read only once the feed below exists (caches consult it on each read, never during construction).
  const enabled = () => feed.live;
  const orgs = new ReadCache<OrganizationRecord | null>({ ttlMs, maxEntries: 10_000, enabled });
  const standings = new ReadCache<Standing | undefined>({ ttlMs, maxEntries: 100_000, enabled });
  const clear = () => {
    orgs.clear();
    standings.clear();
  };
  const feed: ChangeFeed = watchChanges(
    db,
    [COLLECTIONS.organizations, COLLECTIONS.members, COLLECTIONS.teamMembers, COLLECTIONS.teams],
    (collection, id) => {
      const key = String(id);
      if (collection === COLLECTIONS.organizations) orgs.invalidate(key);
      // member ids are "<org>:<user>", the standing's key
      else if (collection === COLLECTIONS.members) standings.invalidate(key);
      // team member ids are "<org>:<team>:<user>"
      else if (collection === COLLECTIONS.teamMembers) {
        const [org, , user] = key.split(':');
        standings.invalidate(`${org}:${user}`);
      }
      // A team's own change (deleted, say) can change who owns a team anywhere in its organization.
      else standings.clear();
    },
    clear,
  );

  return {
    organization: (organizationId) => orgs.get(organizationId, () => load.organization(organizationId)),
    standing: (organizationId, userId) => standings.get(`${organizationId}:${userId}`, () => load.standing(organizationId, userId)),
    clear,
    close: async () => {
      clear();
      await feed.close();
    },
  };
}
