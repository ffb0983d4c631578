import { createHash } from 'node:crypto';
import { forbidden, invalid, notFound, unauthenticated } from '@bindery/platform/errors';
import { Caller } from '@bindery/platform/grpc';
import { normalizeEmail, TokenRecord, UserRecord } from '@bindery/identity/domain';
import { characterCount } from '@bindery/shared/text';
import { newId, newSecret, nowIso } from '@bindery/shared/ids';
import { Cursor } from '@bindery/shared/pagination';
import { IdentityDeps } from './identity-deps';
import { identityEvents } from './identity-events';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Resolves a bearer token. Unknown tokens and tokens of missing users are the same answer. */
export async function authenticate(deps: IdentityDeps, token: string): Promise<Caller> {
  if (!token) throw unauthenticated();
  const record = await deps.tokens.findByHash(hashToken(token));
  const user = record && (await deps.users.findById(record.userId));
  if (!user) throw unauthenticated('The API token is not valid.');
  return { userId: user._id, isInstanceAdmin: user.isInstanceAdmin };
}

export async function getUser(deps: IdentityDeps, userId: string): Promise<UserRecord> {
  const user = await deps.users.findById(userId);
  if (!user) throw notFound('User');
  return user;
}

/** The most ids one LookupUsers call takes. */
export const LOOKUP_USERS_MAX = 1000;
/** The caller's organizations searched at once by lookupUsers. */
const ORGANIZATIONS_PER_STEP = 20;

/**
 * The users among `userIds` the caller may know: the caller themself, those who are members of an
 * organization the caller is a member of, and anyone for an instance administrator. Unknown ids and
 * users the caller may not know are left out alike (nothing tells them apart); duplicates count once.
 */
export async function lookupUsers(deps: IdentityDeps, caller: Caller, userIds: string[]): Promise<UserRecord[]> {
  if (userIds.length > LOOKUP_USERS_MAX) throw invalid(`At most ${LOOKUP_USERS_MAX} users can be looked up at once.`);
  const ids = [...new Set(userIds.filter(Boolean))];
  if (!ids.length) return [];
  const found = await deps.users.findManyByIds(ids);
  if (caller.isInstanceAdmin) return [...found.values()];
  if (caller.site) {
    // A site token (a published site's reader, e.g. another renderer showing a page's authors): the
    // members of the site's organization, by name only — a site's readers never learn addresses.
    const members = await deps.members.findMany(caller.site.organizationId, [...found.keys()]);
    return [...found.values()].filter((u) => members.has(u._id)).map((u) => ({ ...u, email: '' }));
  }
  // Those not yet known to share an organization with the caller; the caller's organizations are
  // walked a few at a time, and the walk ends as soon as nobody is left to place.
  const unplaced = new Set([...found.keys()].filter((id) => id !== caller.userId));
  let cursor: Cursor | undefined;
  while (unplaced.size) {
    const rows = await deps.members.listForUser(caller.userId, cursor, ORGANIZATIONS_PER_STEP);
    const memberships = rows.slice(0, ORGANIZATIONS_PER_STEP);
    const candidates = [...unplaced];
    const shared = await Promise.all(memberships.map((m) => deps.members.findMany(m.organizationId, candidates)));
    for (const members of shared) for (const userId of members.keys()) unplaced.delete(userId);
    if (rows.length <= ORGANIZATIONS_PER_STEP) break;
    cursor = { id: memberships[memberships.length - 1]._id };
  }
  return [...found.values()].filter((u) => !unplaced.has(u._id));
}

function assertInstanceAdmin(caller: Caller) {
  if (!caller.isInstanceAdmin) throw forbidden('Only the instance administrator can do this.');
}

/**
 * Creates a user (instance administrators only). Side effect: `identity.user.created`, which
 * turns the address's pending invites into memberships.
 */
export async function createUser(deps: IdentityDeps, caller: Caller, input: { email: string; displayName: string }): Promise<UserRecord> {
  assertInstanceAdmin(caller);
  const email = normalizeEmail(input.email);
  const displayName = input.displayName.trim();
  if (!displayName || characterCount(displayName) > 100) throw invalid('displayName must have 1 to 100 characters.');
  const id = newId();
  const user = await deps.users.insert({ _id: id, email, displayName, isInstanceAdmin: false, createdAt: nowIso() }, [identityEvents.userCreated(id, email)]);
  deps.eventsRecorded();
  return user;
}

/** Issues an API token for a user (instance administrators only). The token is returned once. */
export async function createApiToken(deps: IdentityDeps, caller: Caller, userId: string, label: string | undefined) {
  assertInstanceAdmin(caller);
  await getUser(deps, userId);
  const token = newSecret('gb_api');
  const record: TokenRecord = { _id: newId(), userId, label: label?.trim() || 'API token', hash: hashToken(token), createdAt: nowIso() };
  await deps.tokens.insert(record);
  return { id: record._id, label: record.label, token, createdAt: record.createdAt };
}

/**
 * Revokes a user's token (instance administrators only). Gateways stop accepting it once their
 * cached answer expires (AUTH_CACHE_TTL_MS).
 */
export async function revokeApiToken(deps: IdentityDeps, caller: Caller, userId: string, tokenId: string): Promise<boolean> {
  assertInstanceAdmin(caller);
  await getUser(deps, userId);
  return deps.tokens.remove(userId, tokenId);
}

/** Makes sure the configured administrator and their token exist (at every start; idempotent). */
export async function bootstrapInstanceAdmin(deps: IdentityDeps, token: string, email: string): Promise<void> {
  const address = normalizeEmail(email);
  const admin = await deps.users.ensureInstanceAdmin(address, 'Administrator', (id) => [identityEvents.userCreated(id, address)]);
  await deps.tokens.ensure({ _id: newId(), userId: admin._id, label: 'bootstrap', hash: hashToken(token), createdAt: nowIso() });
  deps.eventsRecorded();
}
