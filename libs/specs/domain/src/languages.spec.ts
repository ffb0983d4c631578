import { canonicalLanguages } from './languages';
import { assertSlug, sourceOf } from './spec-rules';

describe('translation languages', () => {
  test('tags are put in their canonical form, each once, in the order given', () => {
    expect(canonicalLanguages(['en', 'fr-ca', 'zh-hant-tw', 'EN', 'de-CH-1996', 'sr-Latn'])).toEqual(['en', 'fr-CA', 'zh-Hant-TW', 'de-CH-1996', 'sr-Latn']);
    expect(canonicalLanguages([])).toEqual([]);
  });

  test.each(['', ' en', 'english-language-tag-that-is-far-too-long', 'en_US', 'e', '123', 'en--US', 'x'])('%j is refused, naming it', (tag) => {
    expect(() => canonicalLanguages(['fr', tag])).toThrow(/languages\[1\]: .* is not a BCP 47 language tag/);
  });

  test('at most 100 languages', () => {
    expect(() => canonicalLanguages(Array.from({ length: 101 }, () => 'en'))).toThrow(/at most 100/);
  });
});

describe('spec slugs and sources', () => {
  test.each(['a', 'payments-api', 'v2', 'a'.repeat(100)])('slug %j is accepted', (slug) => expect(() => assertSlug(slug)).not.toThrow());
  test.each(['', 'A', 'a--b', '-a', 'a-', 'a_b', 'a b', 'a'.repeat(101)])('slug %j is refused', (slug) => expect(() => assertSlug(slug)).toThrow(/slug must be/));

  test('a source is a non-empty text or an http(s) URL', () => {
    expect(sourceOf({ text: 'openapi: 3.1.0' }, 100)).toEqual({ kind: 'text', text: 'openapi: 3.1.0' });
    expect(sourceOf({ url: 'https://example.com/openapi.yaml' }, 100)).toEqual({ kind: 'url', url: 'https://example.com/openapi.yaml' });
    expect(() => sourceOf({}, 100)).toThrow(/source must be/);
    expect(() => sourceOf({ text: 'a', url: 'https://x.test' }, 100)).toThrow(/source must be/);
    expect(() => sourceOf({ text: '  ' }, 100)).toThrow(/empty/);
    expect(() => sourceOf({ text: 'x'.repeat(101) }, 100)).toThrow(/larger than 100 bytes/);
    expect(() => sourceOf({ url: 'ftp://example.com/a' }, 100)).toThrow(/http or https/);
    expect(() => sourceOf({ url: 'not a url' }, 100)).toThrow(/not a valid URL/);
  });

  test('a source URL is kept normalised, an ASCII URI', () => {
    expect(sourceOf({ url: 'hTTP://ª' }, 100)).toEqual({ kind: 'url', url: 'http://a/' });
    expect(sourceOf({ url: 'HTTPS://Bücher.example/spec ü.yaml' }, 100)).toEqual({ kind: 'url', url: 'https://xn--bcher-kva.example/spec%20%C3%BC.yaml' });
    expect(() => sourceOf({ url: `https://example.com/${'ü'.repeat(700)}` }, 100)).toThrow(/longer than 2048/);
  });
});
