import { newId, newSecret, newSortableId } from './ids';
import { nowIso } from './time';

describe('ids', () => {
  it('makes 20-character URL-safe ids that do not repeat', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId()));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{20}$/);
  });

  it('sorts event ids by time', () => {
    const a = newSortableId(1_700_000_000_000);
    const b = newSortableId(1_700_000_000_001);
    expect([b, a].sort()).toEqual([a, b]);
  });

  it('prefixes secrets and gives them 256 bits', () => {
    const s = newSecret('gb_api');
    expect(s.startsWith('gb_api_')).toBe(true);
    expect(Buffer.from(s.slice(7), 'base64url')).toHaveLength(32);
  });

  it('writes times as ISO 8601 UTC', () => {
    expect(nowIso(() => 0)).toBe('1970-01-01T00:00:00.000Z');
  });
});
