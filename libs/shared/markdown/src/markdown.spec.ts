import {
  documentToMarkdown,
  markdownToDocument,
  MarkdownInputError,
  plainTextOf,
  referencesOf,
  type ContentRef,
  type Document,
  type DocumentBlock,
  type DocumentNode,
  type ToDocumentOptions,
} from './index';
import { resolvers, validateLatest } from './testing/support';

const blocks = (md: string, options: ToDocumentOptions = resolvers) => markdownToDocument(md, options).document.nodes as DocumentBlock[];
const inlines = (md: string, options: ToDocumentOptions = resolvers) => blocks(md, options)[0].nodes as DocumentNode[];
const roundTrip = (md: string) => markdownToDocument(documentToMarkdown(markdownToDocument(md, resolvers).document), resolvers).document;

describe('links', () => {
  it('resolves internal links through resolveLink into page refs', () => {
    const [link] = inlines('[Setup](guides/setup.md)').filter((n) => n.object === 'inline');
    expect(link).toMatchObject({ type: 'link', data: { ref: { kind: 'page', page: 'p-guides-setup' } } });
  });

  it('turns bare #anchors into anchor refs without asking the resolver', () => {
    const resolveLink = jest.fn(() => null);
    const [link] = inlines('[Voice](#voice)', { ...resolvers, resolveLink }).filter((n) => n.object === 'inline');
    expect(link).toMatchObject({ data: { ref: { kind: 'anchor', anchor: 'voice' } } });
    expect(resolveLink).not.toHaveBeenCalled();
  });

  it('passes page#anchor links to the resolver', () => {
    const [link] = inlines('[Limits](reference/limits.md#per-project)').filter((n) => n.object === 'inline');
    expect(link).toMatchObject({ data: { ref: { kind: 'anchor', anchor: 'per-project', page: 'p-reference-limits' } } });
  });

  it('keeps external URLs as url refs', () => {
    for (const url of ['https://example.com/a?b=1', 'mailto:hi@example.com', 'http://x.test']) {
      const [link] = inlines(`[x](${url})`, {}).filter((n) => n.object === 'inline');
      expect(link).toMatchObject({ type: 'link', data: { ref: { kind: 'url', url } } });
    }
  });

  it('turns an unresolvable internal link into plain text, keeping its text and marks', () => {
    const nodes = inlines('See [the **old** page](missing/old.md) now.');
    expect(nodes.every((n) => n.object === 'text')).toBe(true);
    expect(nodes).toEqual([
      {
        object: 'text',
        key: expect.any(String),
        leaves: [
          { object: 'leaf', text: 'See the ', marks: [] },
          { object: 'leaf', text: 'old', marks: [{ object: 'mark', type: 'bold' }] },
          { object: 'leaf', text: ' page now.', marks: [] },
        ],
      },
    ]);
  });

  it('drops every internal link by default (no resolver)', () => {
    expect(inlines('[a](x.md) [b](/pages/p1)', {}).every((n) => n.object === 'text')).toBe(true);
  });

  it('prints default hrefs that resolve back to the same refs', () => {
    const doc = markdownToDocument('[a](guides/a.md) [b](guides/a.md#part) [c](#here) ![i](.gitbook/assets/pic.png)', resolvers).document;
    const md = documentToMarkdown(doc);
    expect(md).toContain('[a](/pages/p-guides-a)');
    expect(md).toContain('[b](/pages/p-guides-a#part)');
    expect(md).toContain('[c](#here)');
    expect(md).toContain('src="/files/f-pic-png"');
    expect(markdownToDocument(md, resolvers).document).toEqual(doc);
  });

  it('uses a caller hrefOf when given', () => {
    const doc = markdownToDocument('[a](guides/a.md)', resolvers).document;
    expect(documentToMarkdown(doc, { hrefOf: (ref: ContentRef) => (ref.kind === 'page' ? `${String(ref.page)}.md` : '') })).toContain('[a](p-guides-a.md)');
  });
});

describe('files and images', () => {
  it('resolves image sources through resolveFile, falling back to url refs', () => {
    const [images] = blocks('![A](.gitbook/assets/a.png)\n![B](./logo-ref)\n![C](https://cdn.test/c.png)');
    expect(images.type).toBe('images');
    expect((images.nodes as DocumentBlock[]).map((i) => i.data.ref)).toEqual([
      { kind: 'file', file: 'f-a-png' },
      { kind: 'url', url: './logo-ref' },
      { kind: 'url', url: 'https://cdn.test/c.png' },
    ]);
  });

  it('reads figure captions into a caption fragment', () => {
    const [images] = blocks('<figure><img src=".gitbook/assets/a.png" alt="Alt"><figcaption><p>Hello <strong>you</strong></p></figcaption></figure>');
    const image = (images.nodes as DocumentBlock[])[0];
    expect(image.data).toEqual({ ref: { kind: 'file', file: 'f-a-png' }, alt: 'Alt' });
    expect(image.fragments?.[0]).toMatchObject({ fragment: 'caption', nodes: [{ type: 'paragraph' }] });
  });

  it('makes {% file %} a file block, or a content-ref to the source as written when the file is unknown', () => {
    expect(blocks('{% file src=".gitbook/assets/doc.pdf" %}\nCaption\n{% endfile %}')[0]).toMatchObject({ type: 'file', data: { ref: { kind: 'file', file: 'f-doc-pdf' } } });
    const [card, after] = blocks('{% file src="nowhere/doc.pdf" %}Spec sheet{% endfile %}\n\nafter');
    expect(card).toMatchObject({ type: 'content-ref', data: { ref: { kind: 'url', url: 'nowhere/doc.pdf' } } });
    expect(after).toMatchObject({ type: 'paragraph' });
  });

  it('reads inline images with their size', () => {
    const img = inlines('Icon <img src=".gitbook/assets/i.svg" alt="i" data-size="line"> here').find((n) => n.object === 'inline');
    expect(img).toMatchObject({ type: 'inline-image', data: { ref: { kind: 'file', file: 'f-i-svg' }, alt: 'i', size: 'line' }, isVoid: true });
  });
});

describe('front matter', () => {
  it('reads typed page fields', () => {
    const { frontmatter } = markdownToDocument('---\ndescription: Hi\nicon: rocket\ncoverY: -10\nhidden: true\nlayout:\n  width: wide\n  title:\n    visible: false\n---\n\nText');
    expect(frontmatter).toEqual({ description: 'Hi', icon: 'rocket', coverY: -10, hidden: true, layout: { width: 'wide', title: { visible: false } } });
    expect(markdownToDocument('---\nlayout: landing\n---\n\nText').frontmatter).toEqual({ layoutPreset: 'landing' });
    expect(markdownToDocument('---\nlayout:\n  tags:\n    visible: false\n  actions:\n    visible: true\n---\n\nText').frontmatter).toEqual({
      layout: { tags: { visible: false }, actions: { visible: true } },
    });
  });

  it('prints it back as YAML', () => {
    const md = documentToMarkdown({ object: 'document', data: {}, nodes: [] }, { frontmatter: { description: 'D', noIndex: true } });
    expect(md).toBe('---\ndescription: D\nnoIndex: true\n---\n');
  });

  it.each([
    ['---\ndescription: [unclosed\n---\n', /YAML does not parse/],
    ['---\nhidden: "yes"\n---\n', /`hidden` must be true or false, got string "yes"/],
    ['---\ncoverY: high\n---\n', /`coverY` must be a number/],
    ['---\n- a\n- b\n---\n', /expected a YAML mapping/],
    ['---\nlayout:\n  width: huge\n---\n', /`layout.width` must be one of default, wide/],
  ])('rejects invalid front matter with a clear MarkdownInputError (%#)', (md, message) => {
    expect(() => markdownToDocument(md)).toThrow(MarkdownInputError);
    expect(() => markdownToDocument(md)).toThrow(message);
  });
});

describe('title and headings', () => {
  it('takes a leading # H1 as the title, not as content', () => {
    const parsed = markdownToDocument('# My *page*\n\nBody');
    expect(parsed.title).toBe('My page');
    expect(parsed.document.nodes).toHaveLength(1);
  });

  it('has no title when the page does not start with an H1', () => {
    expect(markdownToDocument('Intro\n\n# Later').title).toBeUndefined();
    expect(blocks('Intro\n\n# Later')[1].type).toBe('heading-1');
  });

  it('maps ## / ### / #### to heading-1/2/3 and prints them back the same way', () => {
    expect(blocks('## A\n\n### B\n\n#### C\n\n##### D').map((b) => b.type)).toEqual(['heading-1', 'heading-2', 'heading-3', 'heading-3']);
    expect(documentToMarkdown(markdownToDocument('## A\n\n### B\n\n#### C').document)).toBe('## A\n\n### B\n\n#### C\n');
  });

  it('keeps explicit heading anchors', () => {
    const [h] = blocks('## Release <a href="#rel-v2" id="rel-v2"></a>');
    expect(h.data).toEqual({ id: 'rel-v2' });
    expect(documentToMarkdown(markdownToDocument('## Release <a href="#rel-v2" id="rel-v2"></a>').document)).toBe('## Release <a href="#rel-v2" id="rel-v2"></a>\n');
  });
});

describe('blocks', () => {
  it('reads hints, code wrappers, tabs and expandables', () => {
    const md = [
      '{% hint style="danger" %}\nCareful.\n{% endhint %}',
      '{% code title="a.js" overflow="wrap" lineNumbers="true" %}\n```js\nlet a;\nlet b;\n```\n{% endcode %}',
      '{% tabs %}\n{% tab title="One" %}\nA\n{% endtab %}\n{% endtabs %}',
      '<details>\n\n<summary>Q</summary>\n\nA\n\n</details>',
    ].join('\n\n');
    const [hint, code, tabs, expandable] = blocks(md);
    expect(hint).toMatchObject({ type: 'hint', data: { style: 'danger' } });
    expect(code).toMatchObject({ type: 'code', data: { syntax: 'js', title: 'a.js', overflow: 'wrap', lineNumbers: true } });
    expect((code.nodes as DocumentBlock[]).map((l) => l.type)).toEqual(['code-line', 'code-line']);
    expect(tabs).toMatchObject({ type: 'tabs', nodes: [{ type: 'tabs-item', data: { title: 'One' } }] });
    expect(expandable.fragments?.map((f) => f.fragment)).toEqual(['expandable-title', 'expandable-body']);
  });

  it('ignores tag lines inside fenced code', () => {
    const [code] = blocks('```liquid\n{% hint style="info" %}\nx\n{% endhint %}\n```');
    expect(code.type).toBe('code');
    expect((code.nodes as DocumentBlock[]).length).toBe(3);
  });

  it('fits content the spec forbids in a container (code in a hint) instead of emitting an invalid document', () => {
    const { document } = markdownToDocument('{% hint style="info" %}\nRun:\n\n```bash\nls\n```\n{% endhint %}');
    expect(validateLatest(document)).toBe(true);
    expect(((document.nodes[0] as DocumentBlock).nodes as DocumentBlock[]).map((b) => b.type)).toEqual(['paragraph', 'paragraph']);
  });

  it('gives every block a key, identical across conversions and independent of unrelated edits', () => {
    const a = blocks('Intro\n\n## Title\n\nBody');
    const b = blocks('Changed intro\n\n## Title\n\nBody');
    expect(a.every((n) => typeof n.key === 'string')).toBe(true);
    expect(a.map((n) => n.key)).toEqual(blocks('Intro\n\n## Title\n\nBody').map((n) => n.key));
    expect(a.slice(1).map((n) => n.key)).toEqual(b.slice(1).map((n) => n.key));
    expect(new Set(blocks('Same\n\nSame').map((n) => n.key)).size).toBe(2);
  });

  it('keeps marks stable through a round trip', () => {
    const md = 'A **b *c*** `d` ~~e~~ <kbd>F</kbd> x<sup>2</sup> H<sub>2</sub>O <mark style="color:red;">r</mark> 🚀 $x^2$';
    expect(roundTrip(md)).toEqual(markdownToDocument(md, resolvers).document);
  });
});

describe('referencesOf and plainTextOf', () => {
  const md = [
    'See [setup](guides/setup.md) and [out](https://x.test).',
    '{% hint style="info" %}\nAlso [anchor](#a).\n{% endhint %}',
    '![pic](.gitbook/assets/p.png)',
    '{% embed url="https://video.test/1" %}',
    '{% content-ref url="guides/b.md" %}\n[b](guides/b.md)\n{% endcontent-ref %}',
    '{% file src=".gitbook/assets/f.pdf" %}\n{% endfile %}',
    '| A |\n| - |\n| [c](guides/c.md) |',
  ].join('\n\n');
  const { document } = markdownToDocument(md, resolvers);

  it('lists every reference in document order with its top-level block', () => {
    const refs = referencesOf(document);
    expect(refs.map((r) => r.ref)).toEqual([
      { kind: 'page', page: 'p-guides-setup' },
      { kind: 'url', url: 'https://x.test' },
      { kind: 'anchor', anchor: 'a' },
      { kind: 'file', file: 'f-p-png' },
      { kind: 'url', url: 'https://video.test/1' },
      { kind: 'page', page: 'p-guides-b' },
      { kind: 'file', file: 'f-f-pdf' },
      { kind: 'page', page: 'p-guides-c' },
    ]);
    expect(refs[0].block).toBe((document.nodes[0] as DocumentBlock).key);
    expect(refs[2].block).toBe((document.nodes[1] as DocumentBlock).key);
  });

  it('gives headings and paragraphs one line each', () => {
    const doc: Document = markdownToDocument('## Title\n\nFirst **para**\nwrapped.\n\n- item\n\n```\ncode is skipped\n```').document;
    expect(plainTextOf(doc)).toBe('Title\nFirst para wrapped.\nitem');
  });
});

describe('robustness', () => {
  it.each([
    [''],
    ['---\n---\n'],
    ['{% hint style="info" %}\nnever closed'],
    ['stray\n\n{% endhint %}'],
    ['{% tabs %}\nloose text\n{% tab title="T" %}\nx\n{% endtab %}\n{% endtabs %}'],
    ['- item\n  {% hint style="warning" %}\n  inside a list\n  {% endhint %}\n- next'],
    ['> {% hint style="info" %}\n> quoted hint\n> {% endhint %}'],
    ['<div class="x">raw <b>html</b></div>\n\n<!-- comment -->'],
    ['{% include ".gitbook/includes/snippet.md" %}\n\n{% if visitor.claims.plan %}\nPro\n{% endif %}'],
    ['Footnote[^1].\n\n[^1]: The note.'],
    ['| a | b |\n| - | - |\n| only one |'],
    ['{% columns %}\n{% column %}\n{% hint style="info" %}\nnested\n{% endhint %}\n{% endcolumn %}\n{% endcolumns %}'],
    ['Line one\\\nline two with `code`\r\nand CRLF'],
  ])('converts odd input to a valid, stable document (%#)', (md) => {
    const first = markdownToDocument(md, resolvers);
    expect(validateLatest(first.document)).toBe(true);
    const md2 = documentToMarkdown(first.document, { title: first.title, frontmatter: first.frontmatter });
    const second = markdownToDocument(md2, resolvers);
    expect(documentToMarkdown(second.document, { title: second.title, frontmatter: second.frontmatter })).toBe(md2);
    expect(second.document).toEqual(markdownToDocument(md2, resolvers).document);
  });

  it('keeps a hint inside a list item', () => {
    const [list] = blocks('- item\n  {% hint style="warning" %}\n  inside\n  {% endhint %}\n- next');
    expect(((list.nodes as DocumentBlock[])[0].nodes as DocumentBlock[]).map((b) => b.type)).toEqual(['paragraph', 'hint']);
  });
});
