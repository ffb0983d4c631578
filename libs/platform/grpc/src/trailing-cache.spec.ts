import { notFound } from '@bindery/platform/errors';
import { confirmingDenials, withFreshReads } from './fresh-reads';
import { TrailingCache } from './trailing-cache';

describe('TrailingCache', () => {
  let now = 0;
  const clock = () => now;
  const loader = () => {
    let loads = 0;
    return { load: async () => `v${++loads}`, loads: () => loads };
  };
  beforeEach(() => (now = 1_000));

  it('answers from memory until the entry is maxAgeMs old, then loads again', async () => {
    const cache = new TrailingCache<string>({ maxAgeMs: 250, clock });
    const l = loader();
    expect(await cache.get('k', l.load)).toBe('v1');
    now += 249;
    expect(await cache.get('k', l.load)).toBe('v1');
    now += 1;
    expect(await cache.get('k', l.load)).toBe('v2');
    expect(l.loads()).toBe(2);
  });

  it('shares one load among callers that ask at once', async () => {
    const cache = new TrailingCache<string>({ maxAgeMs: 250, clock });
    const l = loader();
    expect(await Promise.all([cache.get('k', l.load), cache.get('k', l.load), cache.get('k', l.load)])).toEqual(['v1', 'v1', 'v1']);
    expect(l.loads()).toBe(1);
  });

  it('forgets everything on invalidateAll, and never keeps a load that began before it', async () => {
    const cache = new TrailingCache<string>({ maxAgeMs: 10_000, clock });
    const l = loader();
    await cache.get('k', l.load);
    cache.invalidateAll();
    expect(await cache.get('k', l.load)).toBe('v2');
    let release!: (v: string) => void;
    const slow = cache.get('s', () => new Promise<string>((r) => (release = r)));
    cache.invalidateAll();
    release('old');
    expect(await slow).toBe('old');
    expect(await cache.get('s', async () => 'new')).toBe('new');
  });

  it('is bypassed by calls that must read fresh', async () => {
    const cache = new TrailingCache<string>({ maxAgeMs: 10_000, clock });
    const l = loader();
    await cache.get('k', l.load);
    expect(await withFreshReads(() => cache.get('k', l.load))).toBe('v2');
    expect(l.loads()).toBe(2);
  });

  it('marks an answer from memory as trailing, so a denial resting on it is confirmed with fresh reads', async () => {
    const cache = new TrailingCache<boolean>({ maxAgeMs: 10_000, clock });
    let granted = false;
    const load = async () => granted;
    await cache.get('grant', load); // remembers "no grant"
    granted = true; // granted meanwhile, on another replica
    const answer = await confirmingDenials(false, async () => {
      if (!(await cache.get('grant', load))) throw notFound('Space');
      return 'allowed';
    });
    expect(answer).toBe('allowed');
  });

  it('forgets a failed load and keeps at most maxEntries', async () => {
    const cache = new TrailingCache<string>({ maxAgeMs: 10_000, maxEntries: 2, clock });
    await expect(cache.get('k', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('k', async () => 'up')).toBe('up');
    await cache.get('a', async () => 'a');
    await cache.get('b', async () => 'b');
    expect(cache.size).toBe(2);
  });
});
