import { measure, realCorpus, report } from './testing/real-corpus';

const pages = realCorpus();

describe('real corpus (pages GitBook wrote, written into a space without their pages and files)', () => {
  const figures = measure(pages);

  it('reports the figures', () => {
    console.log(report(figures));
    expect(figures.pages).toBeGreaterThanOrEqual(40);
  });
});
