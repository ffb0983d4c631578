import { createHash } from 'node:crypto';
import { unauthenticated } from '@bindery/platform/errors';
import { Caller } from '@bindery/platform/grpc';
import { SESSION_TTL_MS } from '@bindery/identity/domain';
import { newId, newSecret, SECRET_PREFIXES } from '@bindery/shared/ids';
import { IdentityDeps } from '../identity-deps';

export function hashSessionSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Opens a browser session for a user who signed in with a SAML provider; the secret is answered once. */
export async function createSession(deps: IdentityDeps, input: { userId: string; organizationId: string; samlProviderId: string; now: Date }) {
  const secret = newSecret(SECRET_PREFIXES.session);
  const expiresAt = new Date(input.now.getTime() + SESSION_TTL_MS);
  await deps.sessions.insert({
    _id: newId(),
    hash: hashSessionSecret(secret),
    userId: input.userId,
    organizationId: input.organizationId,
    samlProviderId: input.samlProviderId,
    createdAt: input.now.toISOString(),
    expiresAt,
  });
  return { secret, expiresAt };
}

/**
 * Resolves a session's secret to its user, the same caller an API token of that user resolves to
 * (same roles, same policies). Unknown, expired and revoked sessions are the same answer.
 */
export async function authenticateSession(deps: IdentityDeps, secret: string, now: Date = new Date()): Promise<Caller> {
  const refused = () => unauthenticated('The session is not valid; sign in again.');
  if (!secret.startsWith(`${SECRET_PREFIXES.session}_`)) throw refused();
  const session = await deps.sessions.findLive(hashSessionSecret(secret), now);
  const user = session && (await deps.users.findById(session.userId));
  if (!user) throw refused();
  return { userId: user._id, isInstanceAdmin: user.isInstanceAdmin };
}

/** Ends a session (logout); false when there was no live one. */
export function revokeSession(deps: IdentityDeps, secret: string, now: Date = new Date()): Promise<boolean> {
  if (!secret) return Promise.resolve(false);
  return deps.sessions.revoke(hashSessionSecret(secret), now.toISOString());
}
