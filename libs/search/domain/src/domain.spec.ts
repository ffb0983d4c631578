import { combinePostings, excerpt, fold, holdsPhrase, matchesPrefix, MinHeap, parseQuery, sectionsOf, stem, terms } from './index';

describe('search text rules', () => {
  it('folds case and diacritics and stems with Snowball English', () => {
    expect(fold('Crème BRÛLÉE Ångström')).toBe('creme brulee angstrom');
    expect(terms('Configuring webhooks')).toEqual(terms('configure webhook'));
    expect(stem('running')).toBe('run');
  });

  it('parses phrases and a last-word prefix', () => {
    expect(parseQuery('"rate limits" api')).toEqual({ terms: ['rate', 'limit', 'api'], phrases: [['rate', 'limit']], prefix: 'api' });
    expect(parseQuery('"rate limits"').prefix).toBeUndefined();
    expect(parseQuery('auth ').prefix).toBeUndefined();
    expect(matchesPrefix('authent', 'auth')).toBe(true);
    expect(matchesPrefix('configur', 'configura')).toBe(true);
    expect(matchesPrefix('api', 'auth')).toBe(false);
  });

  it('splits a document at its headings', () => {
    const doc = {
      nodes: [
        { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ text: 'Intro text.' }] }] },
        { object: 'block', type: 'heading-2', nodes: [{ object: 'text', leaves: [{ text: 'Rate limits' }] }] },
        { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ text: 'At most 10 calls.' }] }] },
      ],
    };
    expect(sectionsOf('API', doc)).toEqual([
      { n: 0, anchor: '', title: 'API', body: 'Intro text.' },
      { n: 1, anchor: 'rate-limits', title: 'Rate limits', body: 'At most 10 calls.' },
    ]);
  });

  it('highlights matching words in an excerpt and finds phrases', () => {
    const q = new Set(terms('webhook'));
    expect(excerpt('Send <b>Webhooks</b> to a URL.', (t) => q.has(t))).toBe('Send &lt;b&gt;<mark>Webhooks</mark>&lt;/b&gt; to a URL.');
    expect(holdsPhrase(terms('the rate limit applies'), terms('rate limits'))).toBe(true);
    expect(holdsPhrase(terms('limit the rate'), terms('rate limits'))).toBe(false);
  });

  it('scores candidates with what was read and bounds what was not', () => {
    const list = (term: string, entries: [string, number][], truncated: boolean) => ({
      term,
      idf: 2,
      postings: new Map(entries),
      truncated,
      floor: entries[entries.length - 1][1],
    });
    const groups = [['alpha'], ['beta']];
    const out = combinePostings(groups, [
      list(
        'alpha',
        [
          ['a', 1.5],
          ['b', 1],
        ],
        true,
      ),
      list('beta', [['b', 0.5]], false),
    ]);
    // b: both read, exact. a: beta's list is whole and lacks it (0); alpha read. c would be unknown only in a cut list.
    expect(out.find((c) => c.id === 'b')).toEqual({ id: 'b', score: 3, bound: 3, unknown: [] });
    expect(out.find((c) => c.id === 'a')).toEqual({ id: 'a', score: 1.5, bound: 1.5, unknown: [] });
    const cut = combinePostings(groups, [list('alpha', [['a', 1.5]], true), list('beta', [['b', 0.5]], false)]);
    expect(cut.find((c) => c.id === 'b')).toEqual({ id: 'b', score: 0.5, bound: 4, unknown: ['alpha'] });
  });

  it('keeps the k largest numbers offered', () => {
    const heap = new MinHeap(5);
    const xs = Array.from({ length: 200 }, (_, i) => (i * 7919) % 1009);
    xs.forEach((x) => heap.offer(x));
    expect(heap.full).toBe(true);
    expect(heap.min).toBe([...xs].sort((a, b) => b - a)[4]);
  });
});
