import { documentToMarkdown, markdownToDocument } from './index';
import { corpus, countBlocks, nodeTypes, resolvers, validateLatest, validateLegacy } from './testing/support';
import type { Document } from './types';

const pages = corpus();

function roundTrip(markdown: string) {
  const first = markdownToDocument(markdown, resolvers);
  const md2 = documentToMarkdown(first.document, { title: first.title, frontmatter: first.frontmatter });
  const second = markdownToDocument(md2, resolvers);
  const md3 = documentToMarkdown(second.document, { title: second.title, frontmatter: second.frontmatter });
  return { first, second, md2, md3 };
}

describe('corpus', () => {
  it('holds at least 32 pages', () => {
    expect(pages.length).toBeGreaterThanOrEqual(32);
  });

  describe.each(pages)('$name', ({ markdown }) => {
    it('is stable after one round trip (md3 === md2, doc2 deep-equals doc1)', () => {
      const { first, second, md2, md3 } = roundTrip(markdown);
      expect(md3).toBe(md2);
      expect(second.document).toEqual(first.document);
      expect(second.title).toBe(first.title);
      expect(second.frontmatter).toEqual(first.frontmatter);
    });

    it('converts deterministically (byte-identical documents)', () => {
      expect(JSON.stringify(markdownToDocument(markdown, resolvers))).toBe(JSON.stringify(markdownToDocument(markdown, resolvers)));
    });

    it('validates against the 0.202.0 JSONDocument schema', () => {
      const { document } = markdownToDocument(markdown, resolvers);
      const ok = validateLatest(document);
      expect(validateLatest.errors ?? []).toEqual([]);
      expect(ok).toBe(true);
    });
  });

  it('validates against 0.130.0 except for the blocks that need 0.202.0', () => {
    const legacyOnlyFailures = new Set<string>();
    for (const { markdown } of pages) {
      const { document } = markdownToDocument(markdown, resolvers);
      for (const block of document.nodes) {
        const single: Document = { object: 'document', data: {}, nodes: [block] };
        if (!validateLegacy(single)) legacyOnlyFailures.add(block.object === 'block' ? block.type : block.object);
      }
    }
    // columns are not a top-level block in 0.130.0; expandables there have no data (no `defaultExpanded`); cards
    // tables with image columns and a dark cover (`coverDefinitionDark`) are 0.202.0 only
    expect([...legacyOnlyFailures].sort()).toEqual(['columns', 'expandable', 'table']);
  });

  it('produces every supported node type somewhere in the corpus', () => {
    const seen = new Set<string>();
    for (const { markdown } of pages) nodeTypes(markdownToDocument(markdown, resolvers).document).forEach((t) => seen.add(t));
    const expected = [
      ...['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'list-item', 'blockquote', 'divider', 'code', 'code-line'].map(
        (t) => `block:${t}`,
      ),
      ...['hint', 'tabs', 'tabs-item', 'embed', 'file', 'content-ref', 'stepper', 'stepper-step', 'columns', 'column', 'expandable', 'images', 'image', 'table', 'math'].map(
        (t) => `block:${t}`,
      ),
      ...['link', 'inline-image', 'emoji', 'inline-math', 'button', 'icon'].map((t) => `inline:${t}`),
      ...['bold', 'italic', 'code', 'strikethrough', 'keyboard', 'superscript', 'subscript', 'color'].map((t) => `mark:${t}`),
      ...['caption', 'expandable-title', 'expandable-body', 'table-cell'].map((t) => `fragment:${t}`),
    ];
    expect(expected.filter((t) => !seen.has(t))).toEqual([]);
  });

  it('reports the round-trip figures', () => {
    let blocks = 0;
    const types = new Set<string>();
    for (const { markdown } of pages) {
      const { document } = markdownToDocument(markdown, resolvers);
      blocks += countBlocks(document);
      nodeTypes(document).forEach((t) => types.add(t));
    }
    // printed so docs/markdown.md can quote the figures; the assertions above are the contract
    process.stdout.write(`corpus: ${pages.length} pages, ${blocks} blocks, ${types.size} distinct node/mark types\n`);
    expect(blocks).toBeGreaterThan(0);
  });
});
