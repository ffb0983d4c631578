import { DomainError } from '@bindery/platform/errors';
import { decodeCursor, encodeCursor, keysetFilter, resolveLimit, toPage } from './pagination';

describe('pagination', () => {
  it('defaults and bounds the limit', () => {
    expect(resolveLimit(undefined)).toBe(50);
    expect(resolveLimit(1000)).toBe(1000);
    expect(() => resolveLimit(1001)).toThrow(DomainError);
    expect(() => resolveLimit(-1)).toThrow('limit must be an integer from 1 to 1000.');
  });

  it('round-trips cursors and refuses foreign ones as bad input', () => {
    const c = { k: '2024-01-01T00:00:00.000Z', id: 'abc' };
    expect(decodeCursor(encodeCursor(c))).toEqual(c);
    expect(decodeCursor(undefined)).toBeUndefined();
    for (const bad of ['%%%', 'bm90IGpzb24', Buffer.from('{"x":1}').toString('base64url')]) {
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
      const result = toPage(rows, 2, all.length, (r) => ({ id: r._id }), (r) => r._id);
      expect(result.count).toBe(5);
      seen.push(...result.items);
      page = result.nextPage;
    } while (page);
    expect(seen).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});
