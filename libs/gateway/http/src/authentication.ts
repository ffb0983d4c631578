import { createHash } from 'node:crypto';
import { unauthenticated } from '@bindery/platform/errors';
import { type Caller, SITE_TOKEN_PREFIX } from '@bindery/platform/grpc';

/**
 * Resolves bearer tokens through identity, remembering answers for `ttlMs` (seconds at most), so a
 * revoked token stops working within that bound. Keys are token hashes; raw tokens are not kept.
 */
export class TokenCache {
  private readonly entries = new Map<string, { caller: Caller; until: number }>();
  /** lookups under way, so concurrent requests with one token make one call */
  private readonly pending = new Map<string, Promise<Caller>>();

  constructor(
    private readonly resolve: (token: string) => Promise<Caller>,
    private readonly ttlMs: number,
    private readonly maxEntries = 10000,
    /** milliseconds since the epoch; injectable so the TTL can be tested without waiting */
    private readonly clock: () => number = Date.now,
  ) {}

  async authenticate(header: string | undefined): Promise<Caller> {
    return this.authenticateToken(bearerToken(header));
  }

  async authenticateToken(token: string): Promise<Caller> {
    const key = createHash('sha256').update(token).digest('base64url');
    const hit = this.entries.get(key);
    const now = this.clock();
    if (hit && hit.until > now) return hit.caller;
    let lookup = this.pending.get(key);
    if (!lookup) {
      lookup = this.resolve(token).finally(() => this.pending.delete(key));
      this.pending.set(key, lookup);
    }
    const caller = await lookup;
    // Re-inserting moves the entry to the end, so eviction drops the least recently refreshed.
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { caller, until: this.clock() + this.ttlMs });
    return caller;
  }
}

export function bearerToken(header: string | undefined): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match) throw unauthenticated('Send an API token: Authorization: Bearer <token>.');
  return match[1];
}

/**
 * The gateway's bearer authentication: a site token (SITE_TOKEN_PREFIX) is resolved by `sites` (the
 * module with a siteTokenAuthenticator) and must answer a site caller; any other token is resolved
 * by `users` (identity) and must not. Each has its own cache, so a site token's answer is kept for
 * its own, shorter time (SITE_TOKEN_CACHE_MS): an unpublished site ends its tokens within it.
 */
export class BearerAuthentication {
  constructor(
    private readonly users: TokenCache,
    private readonly sites?: TokenCache,
  ) {}

  async authenticate(header: string | undefined): Promise<Caller> {
    const token = bearerToken(header);
    if (!token.startsWith(SITE_TOKEN_PREFIX)) {
      const caller = await this.users.authenticateToken(token);
      if (caller.site) throw unauthenticated('The API token is not valid.');
      return caller;
    }
    if (!this.sites) throw unauthenticated('The API token is not valid.');
    const caller = await this.sites.authenticateToken(token);
    if (!caller.site) throw unauthenticated('The API token is not valid.');
    return caller;
  }
}
