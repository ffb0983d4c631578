import type { Db } from '@bindery/platform/mongo';
import {
  HostnamesRepository,
  InvitesRepository,
  LinkInvitesRepository,
  MembersRepository,
  OrganizationsRepository,
  SamlProvidersRepository,
  TeamsRepository,
  TokensRepository,
  UsersRepository,
} from '@bindery/identity/data-access';

/** What identity's use cases work with; built once at start. */
export interface IdentityDeps {
  users: UsersRepository;
  tokens: TokensRepository;
  organizations: OrganizationsRepository;
  hostnames: HostnamesRepository;
  members: MembersRepository;
  invites: InvitesRepository;
  samlProviders: SamlProvidersRepository;
  linkInvites: LinkInvitesRepository;
  teams: TeamsRepository;
  /** Tells the outbox relay that events were just recorded. */
  eventsRecorded(): void;
  /** How many teams of the organization the user belongs to (the member's `teams` count). */
  teamCountOf(organizationId: string, userId: string): Promise<number>;
}

export function identityDeps(db: Db, eventsRecorded: () => void): IdentityDeps {
  const teams = new TeamsRepository(db);
  return {
    users: new UsersRepository(db),
    tokens: new TokensRepository(db),
    organizations: new OrganizationsRepository(db),
    hostnames: new HostnamesRepository(db),
    members: new MembersRepository(db),
    invites: new InvitesRepository(db),
    samlProviders: new SamlProvidersRepository(db),
    linkInvites: new LinkInvitesRepository(db),
    eventsRecorded,
    teams,
    teamCountOf: (organizationId, userId) => teams.countTeamsOf(organizationId, userId),
  };
}

export const SOURCE = 'bindery/identity';
