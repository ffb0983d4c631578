import { documentToMarkdown, markdownToDocument, type ContentRef, type DocumentBlock, type ToDocumentOptions } from './index';
import { validateLatest } from './testing/support';

/** A space holding two reusable contents, named by their files as a page two folders down includes them. */
const INCLUDES: Record<string, string> = { '../../.gitbook/includes/beta.md': 'rc-beta', '../../.gitbook/includes/support.md': 'rc-support' };
const space: ToDocumentOptions = {
  resolveReusableContent: (path) => (INCLUDES[path] ? { kind: 'reusable-content', reusableContent: INCLUDES[path] } : null),
};
const hrefOf = (ref: ContentRef) => (ref.kind === 'reusable-content' ? (Object.entries(INCLUDES).find(([, id]) => id === ref.reusableContent)?.[0] ?? '') : '');

const blocks = (md: string, options = space) => markdownToDocument(md, options).document.nodes as DocumentBlock[];
const roundTrip = (md: string) => documentToMarkdown(markdownToDocument(md, space).document, { hrefOf });

describe('{% include %} ⇄ reusable-content', () => {
  it('reads an include the caller resolves as a reusable-content block naming the reusable content', () => {
    const md = 'Before.\n\n{% include "../../.gitbook/includes/beta.md" %}\n\nAfter.\n';
    const nodes = blocks(md);
    expect(nodes.map((n) => n.type)).toEqual(['paragraph', 'reusable-content', 'paragraph']);
    expect(nodes[1]).toMatchObject({ object: 'block', isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: 'rc-beta' } } });
    const document = markdownToDocument(md, space).document;
    expect(validateLatest(document) ? [] : validateLatest.errors).toEqual([]);
  });

  it('prints the block back as the include tag, byte for byte', () => {
    for (const md of [
      '{% include "../../.gitbook/includes/beta.md" %}\n',
      '# Title\n\nIntro.\n\n{% include "../../.gitbook/includes/beta.md" %}\n\n{% include "../../.gitbook/includes/support.md" %}\n\n## Next\n\nText.\n',
      '{% hint style="info" %}\nSee below.\n{% endhint %}\n\n{% include "../../.gitbook/includes/support.md" %}\n',
    ]) {
      const parsed = markdownToDocument(md, space);
      expect(documentToMarkdown(parsed.document, { hrefOf, title: parsed.title })).toBe(md);
    }
  });

  it('an include inside an expandable resolves; inside tabs (where the spec allows none) it stays text as written', () => {
    const details = '<details>\n\n<summary>More</summary>\n\n{% include "../../.gitbook/includes/beta.md" %}\n\n</details>\n';
    const body = blocks(details)[0].fragments![1].nodes;
    expect(body.map((n) => n.type)).toEqual(['reusable-content']);
    expect(roundTrip(details)).toBe(details);
    const tabs = '{% tabs %}\n{% tab title="A" %}\n{% include "../../.gitbook/includes/beta.md" %}\n{% endtab %}\n{% endtabs %}\n';
    const tab = (blocks(tabs)[0].nodes as DocumentBlock[])[0];
    expect((tab.nodes as DocumentBlock[]).map((n) => n.type)).toEqual(['paragraph']);
    expect(roundTrip(tabs)).toBe(tabs);
    expect(validateLatest(markdownToDocument(tabs, space).document) ? [] : validateLatest.errors).toEqual([]);
  });

  it('an include the caller does not know stays text, printed back as written', () => {
    const md = '{% include "../../.gitbook/includes/missing.md" %}\n';
    expect(blocks(md)[0].type).toBe('paragraph');
    expect(roundTrip(md)).toBe(md);
    expect(blocks('{% include "../../.gitbook/includes/beta.md" %}\n', {})[0].type).toBe('paragraph');
  });

  it('an include written in a sentence is not a block', () => {
    expect(blocks('Write {% include "../../.gitbook/includes/beta.md" %} here.\n')[0].type).toBe('paragraph');
  });
});
