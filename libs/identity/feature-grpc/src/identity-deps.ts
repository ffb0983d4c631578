import { Db, Transaction, transactionsRelayingEvents } from '@bindery/platform/mongo';
import {
  InvitesRepository,
  LinkInvitesRepository,
  MembersRepository,
  OrganizationsRepository,
  PendingSamlRequestsRepository,
  SamlProvidersRepository,
  SessionsRepository,
  TeamsRepository,
  TokensRepository,
  UsedAssertionsRepository,
  UsersRepository,
} from '@bindery/identity/data-access';
import { AccessReads, accessReads } from './access-reads';

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
  /** browser sessions, the sign-ins this instance started, and the assertions already used (sign-in.repositories.ts) */
  sessions: SessionsRepository;
  samlRequests: PendingSamlRequestsRepository;
  usedAssertions: UsedAssertionsRepository;
  /** Tells the outbox relay that events were just recorded. */
  eventsRecorded(): void;
  /** The organization and a caller's standing in it, served from memory (access-reads.ts). */
  access: AccessReads;
  /** Runs `work` as one multi-document transaction, retried on transient conflicts (platform/mongo). */
  transaction: Transaction;
}

export function identityDeps(db: Db, relayEvents: () => void, options: { accessCacheMs?: number } = {}): IdentityDeps {
  // Every write that changes what access reads records events: forget the cache, then relay them.
  // Repositories call this themselves after each write that records events.
  const cache: { access?: AccessReads } = {};
  const eventsRecorded = () => {
    cache.access?.clear();
    relayEvents();
  };
  const organizations = new OrganizationsRepository(db, eventsRecorded);
  const members = new MembersRepository(db);
  const teams = new TeamsRepository(db);
  const access = (cache.access = accessReads(db, { organizations, members, teams }, options.accessCacheMs ?? 0));
  return {
    users: new UsersRepository(db, eventsRecorded),
    tokens: new TokensRepository(db),
    organizations,
    members,
    access,
    invites: new InvitesRepository(db, eventsRecorded),
    samlProviders: new SamlProvidersRepository(db, eventsRecorded),
    linkInvites: new LinkInvitesRepository(db, eventsRecorded),
    teams,
    sessions: new SessionsRepository(db),
    samlRequests: new PendingSamlRequestsRepository(db),
    usedAssertions: new UsedAssertionsRepository(db),
    eventsRecorded,
    transaction: transactionsRelayingEvents(db, eventsRecorded),
  };
}

export const SOURCE = 'bindery/identity';
