import { DomainError } from '@bindery/platform/errors';
import { bearerToken, TokenCache } from './authentication';

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
