import { assertNoCycle, placementIndex, positionAt, Sibling, subtreeOf } from './tree';

const s = (id: string, position: number, kind: Sibling['kind'] = 'space'): Sibling => ({ kind, id, position });
const siblings = [s('a', 1024), s('b', 2048, 'collection'), s('c', 3072)];

describe('placement among siblings', () => {
  test('before, after, both (neighbours only), or the end', () => {
    expect(placementIndex({ kind: 'space', id: 'x' }, siblings)).toBe(3);
    expect(placementIndex({ kind: 'space', id: 'x' }, siblings, { before: { kind: 'collection', id: 'b' } })).toBe(1);
    expect(placementIndex({ kind: 'space', id: 'x' }, siblings, { after: { kind: 'collection', id: 'b' } })).toBe(2);
    expect(placementIndex({ kind: 'space', id: 'x' }, siblings, { after: { kind: 'space', id: 'a' }, before: { kind: 'collection', id: 'b' } })).toBe(1);
    expect(() => placementIndex({ kind: 'space', id: 'x' }, siblings, { after: { kind: 'space', id: 'a' }, before: { kind: 'space', id: 'c' } })).toThrow('not next to each other');
    expect(() => placementIndex({ kind: 'space', id: 'x' }, siblings, { before: { kind: 'space', id: 'b' } })).toThrow('not in the destination');
    expect(() => placementIndex({ kind: 'space', id: 'a' }, siblings, { before: { kind: 'space', id: 'a' } })).toThrow('the item being moved');
  });

  test('positions fall between neighbours, and ask for a renumbering when there is no room', () => {
    expect(positionAt(siblings, 0)).toBe(0);
    expect(positionAt(siblings, 1)).toBe(1536);
    expect(positionAt(siblings, 3)).toBe(4096);
    expect(positionAt([], 0)).toBe(1024);
    expect(positionAt([s('a', 1), s('b', 1 + 1e-9)], 1)).toBeUndefined();
  });
});

describe('the collection tree', () => {
  const parents: Record<string, string | null> = { a: null, b: 'a', c: 'b', d: null };
  test('a collection cannot go into itself or its own descendants', () => {
    expect(() => assertNoCycle('a', 'c', (id) => parents[id])).toThrow('into itself');
    expect(() => assertNoCycle('a', 'a', (id) => parents[id])).toThrow('into itself');
    expect(() => assertNoCycle('c', 'd', (id) => parents[id])).not.toThrow();
    expect(() => assertNoCycle('b', null, (id) => parents[id])).not.toThrow();
  });

  test('the subtree of a collection', () => {
    const children = new Map([
      ['a', ['b']],
      ['b', ['c']],
    ]);
    expect(subtreeOf('a', children).sort()).toEqual(['a', 'b', 'c']);
    expect(subtreeOf('d', children)).toEqual(['d']);
  });
});
