import { DomainError } from '@bindery/platform/errors';
import { siteCaller } from '@bindery/platform/grpc';
import { BearerAuthentication, bearerToken, TokenCache } from './authentication';

describe('TokenCache', () => {
  it('asks once for concurrent requests with the same token, then serves from memory within the TTL', async () => {
    let calls = 0;
    let answer!: () => void;
    const answered = new Promise<void>((r) => (answer = r));
    const cache = new TokenCache(async (token) => {
      calls++;
      await answered;
      return { userId: `user-of-${token}`, isInstanceAdmin: false };
    }, 1000);
    // Every request arrives while the first lookup is still under way.
    const pending = Array.from({ length: 20 }, () => cache.authenticate('Bearer t1'));
    answer();
    const callers = await Promise.all(pending);
    expect(new Set(callers.map((c) => c.userId))).toEqual(new Set(['user-of-t1']));
    expect(calls).toBe(1);
    await cache.authenticate('Bearer t1');
    expect(calls).toBe(1);
  });

  it('asks again once the TTL has passed (a revoked token stops within it)', async () => {
    let valid = true;
    let now = 1_000_000;
    const cache = new TokenCache(
      async () => {
        if (!valid) throw new DomainError('unauthenticated', 'revoked');
        return { userId: 'u', isInstanceAdmin: false };
      },
      20,
      10000,
      () => now,
    );
    await cache.authenticate('Bearer t');
    valid = false;
    now += 19;
    await expect(cache.authenticate('Bearer t')).resolves.toEqual({ userId: 'u', isInstanceAdmin: false });
    now += 1;
    await expect(cache.authenticate('Bearer t')).rejects.toMatchObject({ kind: 'unauthenticated' });
  });

  it('does not remember failures', async () => {
    let calls = 0;
    const cache = new TokenCache(async () => {
      calls++;
      throw new DomainError('unauthenticated', 'no');
    }, 1000);
    await expect(cache.authenticate('Bearer x')).rejects.toThrow('no');
    await expect(cache.authenticate('Bearer x')).rejects.toThrow('no');
    expect(calls).toBe(2);
  });

  it('reads only well-formed bearer headers', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer abc ')).toBe('abc');
    for (const bad of [undefined, '', 'Basic abc', 'Bearer', 'Bearer a b']) expect(() => bearerToken(bad)).toThrow(DomainError);
  });
});

describe('BearerAuthentication', () => {
  const scope = { organizationId: 'o1', siteId: 's1', spaceIds: ['sp1'], tokenId: 't1' };

  it('sends site tokens to sites and every other token to identity', async () => {
    const asked: string[] = [];
    const users = new TokenCache(async (token) => (asked.push(`identity:${token}`), { userId: 'u1', isInstanceAdmin: false }), 1000);
    const sites = new TokenCache(async (token) => (asked.push(`sites:${token}`), siteCaller(scope)), 1000);
    const auth = new BearerAuthentication(users, sites);
    await expect(auth.authenticate('Bearer gb_api_abc')).resolves.toEqual({ userId: 'u1', isInstanceAdmin: false });
    await expect(auth.authenticate('Bearer bsite_abc')).resolves.toEqual(siteCaller(scope));
    expect(asked).toEqual(['identity:gb_api_abc', 'sites:bsite_abc']);
  });

  it('refuses a site token when no module resolves them, and answers that cross over', async () => {
    let asked = 0;
    const users = new TokenCache(async () => (asked++, { userId: 'u1', isInstanceAdmin: false }), 1000);
    await expect(new BearerAuthentication(users).authenticate('Bearer bsite_abc')).rejects.toMatchObject({ kind: 'unauthenticated' });
    expect(asked).toBe(0);
    // a site token answered with a user, or a user token with a site scope: neither is believed
    const confused = new BearerAuthentication(new TokenCache(async () => siteCaller(scope), 1000), new TokenCache(async () => ({ userId: 'u1', isInstanceAdmin: false }), 1000));
    await expect(confused.authenticate('Bearer gb_api_abc')).rejects.toMatchObject({ kind: 'unauthenticated' });
    await expect(confused.authenticate('Bearer bsite_abc')).rejects.toMatchObject({ kind: 'unauthenticated' });
  });

  it('remembers site-token answers for their own time only (an unpublished site ends them within it)', async () => {
    let now = 1_000_000;
    let published = true;
    const users = new TokenCache(
      async () => ({ userId: 'u1', isInstanceAdmin: false }),
      60_000,
      10_000,
      () => now,
    );
    const sites = new TokenCache(
      async () => {
        if (!published) throw new DomainError('unauthenticated', 'The site token is not valid.');
        return siteCaller(scope);
      },
      500,
      10_000,
      () => now,
    );
    const auth = new BearerAuthentication(users, sites);
    await auth.authenticate('Bearer bsite_abc');
    await auth.authenticate('Bearer gb_api_abc');
    published = false;
    now += 499;
    await expect(auth.authenticate('Bearer bsite_abc')).resolves.toEqual(siteCaller(scope));
    now += 1;
    await expect(auth.authenticate('Bearer bsite_abc')).rejects.toMatchObject({ kind: 'unauthenticated' });
    await expect(auth.authenticate('Bearer gb_api_abc')).resolves.toEqual({ userId: 'u1', isInstanceAdmin: false });
  });
});
