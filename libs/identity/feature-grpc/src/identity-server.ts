import { UntypedServiceImplementation } from '@grpc/grpc-js';
import { adaptHandlers } from '@bindery/platform/grpc';
import { runService } from '@bindery/platform/service-runtime';
import { identityMembersV1 as membersPb, identityV1 as pb } from '@bindery/shared/contracts';
import { IDENTITY_INDEXES, OUTBOX_COLLECTIONS } from '@bindery/identity/data-access';
import { identityDeps } from './identity-deps';
import { identityEventHandlers } from './event-consumers';
import { identityHandlers } from './grpc-handlers';
import { membersHandlers } from './members-grpc-handlers';
import { identitySamlV1 as samlPb } from '@bindery/shared/contracts';
import { samlHandlers } from './saml-grpc-handlers';
import { identityLinkInvitesV1 as linkInvitesPb } from '@bindery/shared/contracts';
import { linkInvitesHandlers } from './link-invites-grpc-handlers';
import { identityTeamsV1 as teamsPb } from '@bindery/shared/contracts';
import { teamsHandlers } from './teams-grpc-handlers';
import { bootstrapInstanceAdmin } from './users.service';

export interface IdentityConfig {
  MONGODB_URL: string;
  KAFKA_BROKERS: string[];
  IDENTITY_DB: string;
  IDENTITY_GRPC_PORT: number;
  OUTBOX_POLL_MS: number;
  KAFKA_NAMESPACE: string;
  BINDERY_ADMIN_TOKEN?: string;
  BINDERY_ADMIN_EMAIL: string;
  /** where users reach this instance: the base of the SAML service provider URLs */
  BINDERY_PUBLIC_URL: string;
  /** how long an organization or a standing may be served from memory; 0 turns the cache off */
  IDENTITY_ACCESS_CACHE_MS: number;
}

/** Identity, started from its configuration. */
export function startIdentityService(config: IdentityConfig) {
  return runService({
    name: 'identity',
    mongoUrl: config.MONGODB_URL,
    dbName: config.IDENTITY_DB,
    kafkaBrokers: config.KAFKA_BROKERS,
    grpcPort: config.IDENTITY_GRPC_PORT,
    outboxPollMs: config.OUTBOX_POLL_MS,
    kafkaNamespace: config.KAFKA_NAMESPACE,
    indexes: IDENTITY_INDEXES,
    outboxCollections: OUTBOX_COLLECTIONS,
    deps: (db, eventsRecorded) => identityDeps(db, eventsRecorded, { accessCacheMs: config.IDENTITY_ACCESS_CACHE_MS }),
    dispose: (deps) => deps.access.close(),
    init: async (deps) => {
      if (config.BINDERY_ADMIN_TOKEN) await bootstrapInstanceAdmin(deps, config.BINDERY_ADMIN_TOKEN, config.BINDERY_ADMIN_EMAIL);
    },
    services: (deps) => [
      { definition: pb.IdentityServiceService, implementation: adaptHandlers(pb.IdentityServiceService, identityHandlers(deps)) as unknown as UntypedServiceImplementation },
      { definition: membersPb.MembersServiceService, implementation: adaptHandlers(membersPb.MembersServiceService, membersHandlers(deps)) as unknown as UntypedServiceImplementation },
      { definition: samlPb.SamlServiceService, implementation: adaptHandlers(samlPb.SamlServiceService, samlHandlers(deps, config.BINDERY_PUBLIC_URL)) as unknown as UntypedServiceImplementation },
      { definition: linkInvitesPb.LinkInvitesServiceService, implementation: adaptHandlers(linkInvitesPb.LinkInvitesServiceService, linkInvitesHandlers(deps)) as unknown as UntypedServiceImplementation },
      { definition: teamsPb.TeamsServiceService, implementation: adaptHandlers(teamsPb.TeamsServiceService, teamsHandlers(deps)) as unknown as UntypedServiceImplementation },
    ],
    consumers: (deps) => ({
      'identity.invites': { from: ['identity'], handlers: identityEventHandlers(deps) },
    }),
  });
}
