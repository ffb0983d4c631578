import { DomainError } from '@bindery/platform/errors';
import { CURSOR_PATTERN, decodeCursor, encodeCursor, keysetFilter, resolveLimit, toPage } from './pagination';

describe('pagination', () => {
  it('defaults and bounds the limit', () => {
    expect(resolveLimit(undefined)).toBe(50);
    expect(resolveLimit(1000)).toBe(1000);
    expect(() => resolveLimit(1001)).toThrow(DomainError);
    expect(() => resolveLimit(-1)).toThrow('limit must be an integer from 1 to 1000.');
  });

  it('round-trips cursors, each in the form of CURSOR_PATTERN', () => {
    const pattern = new RegExp(CURSOR_PATTERN);
    for (const c of [{ k: '2024-01-01T00:00:00.000Z', id: 'abc' }, { id: 'org1:user2' }, { k: '', id: 'x' }, { k: 5, id: 'b' }, { k: -1.5e-7, id: 'b' }, { k: 1e21, id: 'ü' }]) {
      const page = encodeCursor(c);
      expect(page).toMatch(pattern);
      expect(decodeCursor(page)).toEqual(c);
    }
    expect(decodeCursor(undefined)).toBeUndefined();
  });

  it('accepts every string of the form, and refuses others as bad input', () => {
    for (const odd of ['c1.A', 'c1.0', 'c1.____.s', 'c1.abc.n0', 'c1.abc.n-12.5e+3', 'c1.-_-_.s-_-_']) {
      expect(odd).toMatch(new RegExp(CURSOR_PATTERN));
      expect(decodeCursor(odd)).toEqual(expect.objectContaining({ id: expect.any(String) }));
    }
    for (const bad of ['0', '%%%', 'garbage', 'bm90IGpzb24', Buffer.from('{"id":"x"}').toString('base64url'), 'c1.', 'c1.abc.', 'c1.abc.x1', 'c1.abc.n1.', 'c2.abc']) {
      expect(bad).not.toMatch(new RegExp(CURSOR_PATTERN));
      expect(() => decodeCursor(bad)).toThrow(DomainError);
    }
  });

  it('continues after the cursor on (key, id)', () => {
    expect(keysetFilter(undefined, 'k')).toEqual({});
    expect(keysetFilter({ id: 'b' }, undefined)).toEqual({ _id: { $gt: 'b' } });
    expect(keysetFilter({ k: 5, id: 'b' }, 'k', -1)).toEqual({ $or: [{ k: { $lt: 5 } }, { k: 5, _id: { $lt: 'b' } }] });
  });

  it('walks a list with limit 2 visiting each item once', () => {
    const all = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ _id: id }));
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const cursor = decodeCursor(page);
      const rows = all.filter((r) => !cursor || r._id > cursor.id).slice(0, 3);
      const result = toPage(
        rows,
        2,
        all.length,
        (r) => ({ id: r._id }),
        (r) => r._id,
      );
      expect(result.count).toBe(5);
      seen.push(...result.items);
      page = result.nextPage;
    } while (page);
    expect(seen).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});
