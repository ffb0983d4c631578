import { OUTBOX_INDEX } from '@bindery/platform/events';
import { IndexPlan } from '@bindery/platform/mongo';

export const COLLECTIONS = {
  users: 'users',
  tokens: 'tokens',
  organizations: 'organizations',
  hostnames: 'hostnames',
  members: 'members',
  invites: 'invites',
} as const;

/** Collections whose documents carry outbox events for the relay. */
export const OUTBOX_COLLECTIONS = [COLLECTIONS.users, COLLECTIONS.organizations, COLLECTIONS.members, COLLECTIONS.invites];

/** One index per query path (uniqueness comes from unique indexes, never from read-then-write). */
export const IDENTITY_INDEXES: IndexPlan = {
  [COLLECTIONS.users]: [{ key: { email: 1 }, name: 'email_unique', unique: true }, OUTBOX_INDEX],
  [COLLECTIONS.tokens]: [{ key: { hash: 1 }, name: 'hash_unique', unique: true }, { key: { userId: 1 }, name: 'by_user' }],
  [COLLECTIONS.organizations]: [{ key: { emailDomains: 1 }, name: 'by_email_domain' }, OUTBOX_INDEX],
  [COLLECTIONS.members]: [
    { key: { userId: 1, organizationId: 1 }, name: 'by_user' },
    { key: { organizationId: 1, joinedAt: 1, _id: 1 }, name: 'by_org_joined' },
    OUTBOX_INDEX,
  ],
  [COLLECTIONS.invites]: [{ key: { email: 1 }, name: 'by_email' }, OUTBOX_INDEX],
};
