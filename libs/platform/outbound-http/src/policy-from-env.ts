/** The one switch operators have over outbound fetches. Spread it into `safeFetch` init. */
export interface OutboundPolicy {
  readonly allowPrivate: boolean;
}

export const OUTBOUND_ALLOW_PRIVATE_ENV = 'BINDERY_OUTBOUND_ALLOW_PRIVATE';

/**
 * Reads the policy from the environment. Only the exact strings "true" and
 * "false" are accepted: a typo such as "ture" or "1" silently meaning false (or
 * true) would be a security setting nobody actually chose, so it fails startup.
 * An empty value counts as unset because `FOO=` in compose files and .env files
 * is the usual way to "not set" something.
 */
export function outboundPolicyFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): OutboundPolicy {
  const raw = env[OUTBOUND_ALLOW_PRIVATE_ENV];
  if (raw === undefined || raw === '' || raw === 'false') return { allowPrivate: false };
  if (raw === 'true') return { allowPrivate: true };
  // The value itself is left out: misplaced secrets pasted into the wrong variable should not reach logs.
  throw new Error(`${OUTBOUND_ALLOW_PRIVATE_ENV} must be "true" or "false"`);
}
