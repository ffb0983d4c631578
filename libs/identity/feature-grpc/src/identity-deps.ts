import { ClientSession, Db, withTransaction } from '@bindery/platform/mongo';
import {
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
  members: MembersRepository;
  invites: InvitesRepository;
  samlProviders: SamlProvidersRepository;
  linkInvites: LinkInvitesRepository;
  teams: TeamsRepository;
  /** Tells the outbox relay that events were just recorded. */
  eventsRecorded(): void;
  /** Runs `work` as one multi-document transaction, retried on transient conflicts (platform/mongo). */
  transaction<T>(work: (session: ClientSession) => Promise<T>): Promise<T>;
}

export function identityDeps(db: Db, eventsRecorded: () => void): IdentityDeps {
  return {
    users: new UsersRepository(db),
    tokens: new TokensRepository(db),
    organizations: new OrganizationsRepository(db),
    members: new MembersRepository(db),
    invites: new InvitesRepository(db),
    samlProviders: new SamlProvidersRepository(db),
    linkInvites: new LinkInvitesRepository(db),
    teams: new TeamsRepository(db),
    eventsRecorded,
    transaction: (work) => withTransaction(db, work),
  };
}

export const SOURCE = 'bindery/identity';
