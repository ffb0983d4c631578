import { OUTBOX_INDEX } from '@bindery/platform/events';
import { IndexPlan } from '@bindery/platform/mongo';

export const COLLECTIONS = {
  users: 'users',
  tokens: 'tokens',
  organizations: 'organizations',
  members: 'members',
  invites: 'invites',
  samlProviders: 'saml_providers',
  linkInvites: 'link_invites',
  teams: 'teams',
  teamMembers: 'team_members',
  sessions: 'sessions',
  samlRequests: 'saml_requests',
  samlAssertions: 'saml_assertions',
} as const;

/** Collections whose documents carry outbox events for the relay. */
export const OUTBOX_COLLECTIONS = [
  COLLECTIONS.users,
  COLLECTIONS.organizations,
  COLLECTIONS.members,
  COLLECTIONS.invites,
  COLLECTIONS.samlProviders,
  COLLECTIONS.linkInvites,
  COLLECTIONS.teams,
  COLLECTIONS.teamMembers,
];

/** One index per query path (uniqueness comes from unique indexes, never from read-then-write). */
export const IDENTITY_INDEXES: IndexPlan = {
  [COLLECTIONS.users]: [{ key: { email: 1 }, name: 'email_unique', unique: true }, OUTBOX_INDEX],
  [COLLECTIONS.tokens]: [
    { key: { hash: 1 }, name: 'hash_unique', unique: true },
    { key: { userId: 1 }, name: 'by_user' },
  ],
  [COLLECTIONS.organizations]: [
    // An e-mail domain and a hostname each belong to one organization.
    { key: { emailDomains: 1 }, name: 'email_domain_unique', unique: true, partialFilterExpression: { 'emailDomains.0': { $exists: true } } },
    { key: { hostname: 1 }, name: 'hostname_unique', unique: true, partialFilterExpression: { hostname: { $type: 'string' } } },
    OUTBOX_INDEX,
  ],
  [COLLECTIONS.members]: [
    { key: { userId: 1, organizationId: 1 }, name: 'by_user' },
    { key: { organizationId: 1, joinedAt: 1, _id: 1 }, name: 'by_org_joined' },
    { key: { organizationId: 1, lastSeenAt: 1, _id: 1 }, name: 'by_org_last_seen' },
    { key: { organizationId: 1, role: 1 }, name: 'by_org_role' },
    // Counts an organization's current members from the index alone (removedAt: null).
    { key: { organizationId: 1, removedAt: 1 }, name: 'by_org_active' },
    OUTBOX_INDEX,
  ],
  [COLLECTIONS.invites]: [{ key: { email: 1 }, name: 'by_email' }, OUTBOX_INDEX],
  [COLLECTIONS.samlProviders]: [{ key: { organizationId: 1, createdAt: 1, _id: 1 }, name: 'by_org_created' }, OUTBOX_INDEX],
  [COLLECTIONS.linkInvites]: [{ key: { organizationId: 1, createdAt: 1, _id: 1 }, name: 'by_org_created' }, OUTBOX_INDEX],
  [COLLECTIONS.teams]: [{ key: { organizationId: 1, titleLower: 1, _id: 1 }, name: 'by_org_title' }, OUTBOX_INDEX],
  // Browser sessions and the SAML exchange's short-lived records go when they are over (TTL).
  [COLLECTIONS.sessions]: [
    { key: { hash: 1 }, name: 'hash_unique', unique: true },
    { key: { expiresAt: 1 }, name: 'expires', expireAfterSeconds: 0 },
  ],
  [COLLECTIONS.samlRequests]: [{ key: { expiresAt: 1 }, name: 'expires', expireAfterSeconds: 0 }],
  [COLLECTIONS.samlAssertions]: [{ key: { expiresAt: 1 }, name: 'expires', expireAfterSeconds: 0 }],
  [COLLECTIONS.teamMembers]: [{ key: { organizationId: 1, teamId: 1, _id: 1 }, name: 'by_team' }, { key: { organizationId: 1, userId: 1 }, name: 'by_org_user' }, OUTBOX_INDEX],
};
