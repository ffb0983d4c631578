import { measure, realCorpus, report } from './testing/real-corpus';
import { validateLatest } from './testing/support';
import { markdownToDocument } from './index';
import { emptySpace } from './testing/real-corpus';

const pages = realCorpus();

/**
 * Pages GitBook wrote (see corpus-real/SOURCES.md), written into a space that holds none of the pages and files they
 * link to: md1 → doc1 → md2 → doc2 → md3. The floors below are the figures reached; a regression fails the test.
 */
describe('real corpus (pages GitBook wrote, written into a space without their pages and files)', () => {
  const figures = measure(pages);

  it('reports the figures', () => {
    console.log(report(figures));
    expect(figures.pages).toBeGreaterThanOrEqual(59);
  });

  it('is stable on the second trip (md3 === md2) for every page', () => {
    expect(figures.unstable).toEqual([]);
  });

  it('keeps the words of the pages (all but unresolved link targets)', () => {
    expect(figures.words.kept / figures.words.total).toBeGreaterThanOrEqual(0.9745);
  });

  it('keeps HTML as HTML (nothing escaped into text)', () => {
    expect(figures.escapedTags).toBe(0);
  });

  it('keeps the GitBook blocks', () => {
    expect(figures.blocks.kept / figures.blocks.total).toBeGreaterThanOrEqual(0.997);
    const lost = Object.entries(figures.constructs).filter(([name, c]) => c.kept < c.before && name !== 'md link');
    // two `{% tab %}` stand outside any `{% tabs %}` in their page (devtron install-devtron-helm-3.md)
    expect(lost.map(([name, c]) => `${name}: ${c.kept}/${c.before}`)).toEqual(['tab: 53/55']);
  });

  it.each(pages)('$name validates against the 0.202.0 JSONDocument schema', ({ markdown }) => {
    const { document } = markdownToDocument(markdown, emptySpace);
    expect(validateLatest(document) ? [] : validateLatest.errors).toEqual([]);
  });
});
