import { defineService } from '@bindery/platform/service-runtime';
import { IDENTITY_INDEXES, OUTBOX_COLLECTIONS } from '@bindery/identity/data-access';
import { identityDeps } from './identity-deps';
import { identityEventHandlers } from './event-consumers';
import { identityHandlers } from './grpc-handlers';
import { membersHandlers } from './members-grpc-handlers';
import { samlHandlers } from './saml-grpc-handlers';
import { linkInvitesHandlers } from './link-invites-grpc-handlers';
import { signInHandlers } from './sign-in-grpc-handlers';
import { teamsHandlers } from './teams-grpc-handlers';
import { bootstrapInstanceAdmin } from './users.service';

/** Identity: users, tokens, organizations, members, teams, SSO and invitations. */
export const identityService = defineService({
  name: 'identity',
  settings: {
    BINDERY_ADMIN_TOKEN: { kind: 'string', optional: true, secret: true, min: 16 },
    BINDERY_ADMIN_EMAIL: { kind: 'string', default: 'admin@bindery.local' },
    /** where users reach this instance: the base of the SAML service provider URLs */
    BINDERY_PUBLIC_URL: { kind: 'url', default: 'http://127.0.0.1:8080' },
    /** how long an organization or a standing may be served from memory; 0 turns the cache off */
    IDENTITY_ACCESS_CACHE_MS: { kind: 'int', default: 30000, min: 0, max: 3600000 },
  },
  indexes: IDENTITY_INDEXES,
  outboxCollections: OUTBOX_COLLECTIONS,
  deps: ({ db, config, eventsRecorded }) => identityDeps(db, eventsRecorded, { accessCacheMs: config.IDENTITY_ACCESS_CACHE_MS }),
  dispose: (deps) => deps.access.close(),
  init: async (deps, config) => {
    if (config.BINDERY_ADMIN_TOKEN) await bootstrapInstanceAdmin(deps, config.BINDERY_ADMIN_TOKEN, config.BINDERY_ADMIN_EMAIL);
  },
  grpc: (deps, config) => [
    identityHandlers(deps),
    membersHandlers(deps),
    samlHandlers(deps, config.BINDERY_PUBLIC_URL),
    linkInvitesHandlers(deps),
    teamsHandlers(deps),
    signInHandlers(deps, { publicUrl: config.BINDERY_PUBLIC_URL, now: () => new Date() }),
  ],
  consumers: (deps) => ({
    'identity.invites': { from: ['identity'], handlers: identityEventHandlers(deps) },
  }),
});
