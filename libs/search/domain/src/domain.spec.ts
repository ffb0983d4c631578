import { excerpt, fold, holdsPhrase, matchesPrefix, parseQuery, sectionsOf, stem, terms } from './index';

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
});
