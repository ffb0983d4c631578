import { ReadCache } from './read-cache';

describe('ReadCache', () => {
  const make = (enabled = true, ttlMs = 60000, maxEntries = 100) => new ReadCache<number>({ ttlMs, maxEntries, enabled: () => enabled });

  it('loads once, then answers from memory until invalidated', async () => {
    const cache = make();
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get('k', load)).toBe(1);
    expect(await cache.get('k', load)).toBe(1);
    cache.invalidate('k');
    expect(await cache.get('k', load)).toBe(2);
  });

  it('never stores a value whose load began before an invalidation', async () => {
    const cache = make();
    let release!: (v: number) => void;
    const slow = cache.get('k', () => new Promise<number>((r) => (release = r)));
    cache.invalidate('k'); // the document changed while the old value was being read
    release(1);
    expect(await slow).toBe(1); // the caller that asked first gets what it read…
    expect(await cache.get('k', async () => 2)).toBe(2); // …but it was not kept
  });

  it('shares one load among concurrent misses of a key', async () => {
    const cache = make();
    let loads = 0;
    const load = () => new Promise<number>((r) => setTimeout(() => r(++loads), 10));
    expect(await Promise.all([cache.get('k', load), cache.get('k', load), cache.get('k', load)])).toEqual([1, 1, 1]);
  });

  it('reads through when disabled, expires entries, and keeps at most maxEntries', async () => {
    let n = 0;
    const off = make(false);
    expect([await off.get('k', async () => ++n), await off.get('k', async () => ++n)]).toEqual([1, 2]);
    expect(off.size).toBe(0);

    const expiring = make(true, 0);
    expect([await expiring.get('k', async () => ++n), await expiring.get('k', async () => ++n)]).toEqual([3, 4]);

    const small = make(true, 60000, 2);
    for (const k of ['a', 'b', 'c']) await small.get(k, async () => 0);
    expect(small.size).toBe(2);
  });
});
