import { documentToMarkdown, markdownToDocument, type Document, type DocumentBlock } from './index';
import { emptySpace } from './testing/real-corpus';
import { validateLatest } from './testing/support';

/** HTML GitBook writes in Markdown, read into a space that holds none of the pages and files it points to. */
const read = (md: string) => markdownToDocument(md, emptySpace).document;
const blocks = (md: string) => read(md).nodes as DocumentBlock[];
/** Printed from the nodes alone (no source kept), then read and printed again: returns md2, asserting md3 === md2 and a valid document. */
function stable(md: string): string {
  const document = read(md);
  expect(validateLatest(document) ? [] : validateLatest.errors).toEqual([]);
  expect(JSON.stringify(document)).not.toContain('"meta"');
  const md2 = documentToMarkdown(document);
  expect(documentToMarkdown(read(md2))).toBe(md2);
  return md2;
}
const json = (md: string) => JSON.stringify(read(md));

describe('aligned headings', () => {
  it('reads <h3 align="center"> as a heading with its alignment and writes it back unchanged', () => {
    const md = '<h3 align="center">Build <strong>faster</strong> with Bindery</h3>\n';
    expect(blocks(md)[0]).toMatchObject({
      type: 'heading-2',
      data: { align: 'center' },
      nodes: [{ leaves: [{ text: 'Build ' }, { text: 'faster', marks: [{ type: 'bold' }] }, { text: ' with Bindery' }] }],
    });
    expect(stable(md)).toBe(md);
    for (const form of ['<h2 align="right">Right</h2>\n', '<h4 align="left">Left</h4>\n', '<h2 align="center">Title <a href="#custom" id="custom"></a></h2>\n'])
      expect(stable(form)).toBe(form);
    expect(blocks('<h2 align="center">Title <a href="#custom" id="custom"></a></h2>\n')[0].data).toEqual({ id: 'custom', align: 'center' });
  });

  it('keeps an edited page with an aligned heading free of escapes', () => {
    const md = '<h3 align="center">Welcome</h3>\n\nFirst paragraph.\n';
    const doc = read(md);
    doc.nodes.push({ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'One more sentence.', marks: [] }] }] });
    expect(documentToMarkdown(doc)).toBe(`${md}\nOne more sentence.\n`);
  });
});

describe('pictures (light and dark images)', () => {
  const picture = '<picture><source srcset="https://example.com/logo-dark.svg" media="(prefers-color-scheme: dark)"><img src="https://example.com/logo.svg" alt="Logo"></picture>';

  it('reads a <picture> in a sentence as an inline image with its dark variant', () => {
    const md = `Works with ${picture} and more.\n`;
    expect(blocks(md)[0].nodes).toMatchObject([
      { leaves: [{ text: 'Works with ' }] },
      {
        type: 'inline-image',
        data: { ref: { kind: 'url', url: 'https://example.com/logo.svg' }, refDark: { kind: 'url', url: 'https://example.com/logo-dark.svg' }, alt: 'Logo' },
      },
      { leaves: [{ text: ' and more.' }] },
    ]);
    expect(stable(md)).toBe(md);
  });

  it('a srcset with descriptors names its first image, and an icon name over 50 characters is no icon', () => {
    const md =
      'See <picture><source srcset="dark.png 1x, dark@2x.png 2x" media="(prefers-color-scheme: dark)"><img src="light.png" alt="L"></picture> and <i class="fa-' +
      'x'.repeat(51) +
      '">:x:</i>.\n';
    const nodes = blocks(md)[0].nodes ?? [];
    const types = nodes.map((n) => (n.object === 'inline' ? n.type : n.object));
    expect(nodes[types.indexOf('inline-image')]).toMatchObject({ data: { refDark: { kind: 'url', url: 'dark.png' } } });
    expect(types).not.toContain('icon');
  });

  it('reads a <picture> in a <figure> as an image with refDark, caption and width', () => {
    const md =
      '<figure><picture><source srcset=".gitbook/assets/fig_dark.svg" media="(prefers-color-scheme: dark)"><img src=".gitbook/assets/fig_light.svg" alt="" width="563"></picture><figcaption><p>How the parts fit</p></figcaption></figure>\n';
    expect(blocks(md)[0]).toMatchObject({
      type: 'images',
      nodes: [{ type: 'image', data: { ref: { url: '.gitbook/assets/fig_light.svg' }, refDark: { url: '.gitbook/assets/fig_dark.svg' }, width: 563 } }],
    });
    expect(stable(md)).toBe(md);
    const framed = `<div align="center" data-with-frame="true">${md.trim()}</div>\n`;
    expect(blocks(framed)[0].data).toEqual({ align: 'center', withFrame: true });
    expect(stable(framed)).toBe(framed);
  });

  it('keeps a <figure> in a list item (which may hold no image block) as inline images, printed back as the figure', () => {
    const md = '1. Open the settings:\n\n   <figure><img src=".gitbook/assets/settings.png" alt="Settings"><figcaption><p>The settings</p></figcaption></figure>\n2. Save.\n';
    const item = (blocks(md)[0].nodes?.[0] as DocumentBlock).nodes as DocumentBlock[];
    expect(item[1]).toMatchObject({ type: 'paragraph', nodes: [{ type: 'inline-image', data: { ref: { url: '.gitbook/assets/settings.png' }, alt: 'Settings' } }] });
    expect(documentToMarkdown(read(md))).toBe(md);
    expect(validateLatest(read(md)) ? [] : validateLatest.errors).toEqual([]);
  });

  it('reads a <picture> alone in a paragraph', () => {
    const md = `${picture}\n`;
    expect(blocks(md)[0]).toMatchObject({ type: 'paragraph', nodes: [{ type: 'inline-image', data: { refDark: { url: 'https://example.com/logo-dark.svg' } } }] });
    expect(stable(md)).toBe(md);
  });
});

describe('buttons, icons, marks', () => {
  it('reads buttons and Font Awesome icons in running text', () => {
    const md =
      'Start here <a href="https://example.com/start" class="button primary">Get started</a> or <a href="https://example.com/docs" class="button secondary">Read</a> <i class="fa-rocket">:rocket:</i> now.\n';
    const nodes = blocks(md)[0].nodes ?? [];
    expect(nodes.filter((n) => n.object === 'inline').map((n) => [n.type, (n as { data: unknown }).data])).toEqual([
      ['button', { label: 'Get started', kind: 'primary', ref: { kind: 'url', url: 'https://example.com/start' } }],
      ['button', { label: 'Read', kind: 'secondary', ref: { kind: 'url', url: 'https://example.com/docs' } }],
      ['icon', { icon: 'rocket' }],
    ]);
    expect(json(md)).not.toContain(':rocket:');
    expect(stable(md)).toBe(md);
  });

  it('reads coloured marks', () => {
    const md = 'A <mark style="color:red;background-color:yellow;">warning</mark> here.\n';
    expect(blocks(md)[0].nodes).toMatchObject([
      { leaves: [{ text: 'A ' }, { text: 'warning', marks: [{ type: 'color', data: { text: 'red', background: 'yellow' } }] }, { text: ' here.' }] },
    ]);
    expect(stable(md)).toBe(md);
  });
});

describe('cards tables', () => {
  const cards =
    '<table data-card-size="large" data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-cover data-type="image">Cover image</th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover-dark data-type="image">Cover image (dark)</th></tr></thead><tbody>' +
    '<tr><td><h4><i class="fa-users-medical">:users-medical:</i></h4></td><td><strong>Invite your team</strong></td><td data-object-fit="contain"><a href="../.gitbook/assets/invite.png">invite.png</a></td><td><a href="../account/invite-members.md">invite-members.md</a></td><td><a href="../.gitbook/assets/invite-dark.png">invite-dark.png</a></td></tr>' +
    '<tr><td><h4>GitBook homepage</h4></td><td>Visit our <a href="https://www.gitbook.com/">website</a>.</td><td><a href="https://files.example.com/o/a.png?alt=media&#x26;token=b2">https://files.example.com/o/a.png?alt=media&#x26;token=b2</a></td><td><a href="https://www.gitbook.com/">https://www.gitbook.com/</a></td><td></td></tr>' +
    '</tbody></table>\n';

  it('keeps every column: covers (light and dark), target, hidden columns, headings and icons in cells', () => {
    const [table] = blocks(cards);
    expect(table.data.view).toEqual({ type: 'cards', columns: ['c0', 'c1'], cardSize: 'large', coverDefinition: 'c2', targetDefinition: 'c3', coverDefinitionDark: 'c4' });
    expect(table.data.definition).toMatchObject({ c2: { type: 'image', title: 'Cover image' }, c3: { type: 'content-ref' }, c4: { type: 'image', title: 'Cover image (dark)' } });
    const r0 = (table.data.records as Record<string, { values: Record<string, unknown> }>).r0.values;
    expect(r0).toMatchObject({
      c2: { ref: { kind: 'url', url: '../.gitbook/assets/invite.png' }, objectFit: 'contain' },
      c3: { kind: 'url', url: '../account/invite-members.md' },
    });
    expect(table.fragments?.[0]).toMatchObject({ fragment: 'r0c0', nodes: [{ type: 'heading-3', nodes: [{ type: 'icon', data: { icon: 'users-medical' } }] }] });
    expect(table.fragments?.[1].nodes).toMatchObject([{ type: 'paragraph', nodes: [{ leaves: [{ text: 'Invite your team', marks: [{ type: 'bold' }] }] }] }]);
    expect(stable(cards)).toBe(cards);
  });

  it('keeps a select column and a full-width flag', () => {
    const md =
      '<table data-view="cards" data-full-width="false"><thead><tr><th></th><th data-hidden><select></select></th></tr></thead><tbody><tr><td><strong>Sections</strong></td><td></td></tr></tbody></table>\n';
    expect(blocks(md)[0].data).toMatchObject({ fullWidth: false, definition: { c1: { type: 'select', options: [] } } });
    expect(stable(md)).toBe(md);
  });
});

describe('expandables', () => {
  it('keeps an expandable holding a list, code, a hint and inline HTML, and its open state', () => {
    const md =
      '<details open>\n\n<summary>Setup <strong>steps</strong></summary>\n\n- one\n- two\n\n```sh\nnpm i\n```\n\n{% hint style="info" %}\nNote.\n{% endhint %}\n\n<mark style="color:red;">Careful</mark> <i class="fa-bolt">:bolt:</i>.\n\n</details>\n';
    const [outer] = blocks(md);
    expect(outer).toMatchObject({ type: 'expandable', data: { defaultExpanded: true } });
    const body = outer.fragments?.find((f) => f.fragment === 'expandable-body')?.nodes.map((n) => n.type);
    expect(body).toEqual(['list-unordered', 'code', 'hint', 'paragraph']);
    expect(stable(md)).toBe(md);
  });

  it('writes a plain Markdown title in the HTML form GitBook writes', () => {
    expect(stable('<details>\n\n<summary>Why **this**?</summary>\n\nBecause.\n\n</details>\n')).toBe(
      '<details>\n\n<summary>Why <strong>this</strong>?</summary>\n\nBecause.\n\n</details>\n',
    );
  });
});

describe('HTML no node holds', () => {
  it('keeps a block of unknown HTML verbatim; the document holds its text', () => {
    const md = '<div class="hero">\n  <span>Fast</span> <em>and</em> small<script>alert(1)</script>\n</div>\n\nAfter.\n';
    const doc = read(md);
    expect(doc.nodes[0]).toMatchObject({ type: 'paragraph', nodes: [{ leaves: [{ text: 'Fast and small' }] }] });
    expect(JSON.stringify((doc.nodes[0] as DocumentBlock).nodes)).not.toMatch(/[<>]|alert/);
    expect(documentToMarkdown(doc)).toBe(md);
    expect(documentToMarkdown(read(documentToMarkdown(doc)))).toBe(md);
    expect(validateLatest(doc) ? [] : validateLatest.errors).toEqual([]);
  });

  it('keeps a paragraph with unknown inline HTML verbatim, inside a list too', () => {
    for (const md of ['Press <span style="font-size:2em">big</span> <u>now</u>.\n', '- item with <abbr title="HyperText">HTML</abbr>\n  and more\n- next\n']) {
      expect(documentToMarkdown(read(md))).toBe(md);
      expect(JSON.stringify(read(md).nodes, (k, v) => (k === 'meta' ? undefined : v))).not.toMatch(/<(span|u|abbr)/);
    }
  });

  it('keeps HTML lists in a Markdown table cell verbatim; the cell holds their text, one item a line', () => {
    const md =
      '| Resource | Options                                  |\n| -------- | ---------------------------------------- |\n| `/html`  | <ul><li>`/message`</li><li>`/page`</li></ul> |\n';
    const [table] = blocks(md);
    expect(table.fragments?.[1].nodes[0].nodes).toMatchObject([
      { leaves: [{ text: '/message', marks: [{ type: 'code' }] }, { text: '\n' }, { text: '/page', marks: [{ type: 'code' }] }] },
    ]);
    const md2 = documentToMarkdown(read(md));
    expect(md2).toContain('| <ul><li>`/message`</li><li>`/page`</li></ul> |');
    expect(documentToMarkdown(read(md2))).toBe(md2);
  });

  it('keeps HTML no node holds in the cells of HTML tables and cards', () => {
    const grid =
      '<table><thead><tr><th width="200">Field</th><th>Values</th></tr></thead><tbody><tr><td>Mode</td><td><ul><li>fast</li><li>safe</li></ul></td></tr></tbody></table>\n';
    expect(documentToMarkdown(read(grid))).toBe(grid);
    const cards = '<table data-view="cards"><thead><tr><th></th></tr></thead><tbody><tr><td>Plan <span class="tag">new</span></td></tr></tbody></table>\n';
    expect(documentToMarkdown(read(cards))).toBe(cards);
    expect(JSON.stringify(read(cards).nodes, (k, v) => (k === 'meta' ? undefined : v))).not.toContain('<span');
  });

  it('keeps an anchor target (`<a id>`) in a paragraph', () => {
    const md = 'Jump here <a id="here"></a>then read on.\n';
    expect(documentToMarkdown(read(md))).toBe(md);
  });

  it('prints a kept paragraph from its nodes once a page it links to prints elsewhere (moved)', () => {
    const md = 'See <span>the</span> [guide](guide.md).\n';
    const options = { resolveLink: (href: string) => (href === 'guide.md' ? { kind: 'page', page: 'p1' } : null) };
    const { document } = markdownToDocument(md, options);
    expect(documentToMarkdown(document, { hrefOf: () => 'guide.md' })).toBe(md);
    expect(documentToMarkdown(document, { hrefOf: () => 'moved/guide.md' })).toBe('See the [guide](moved/guide.md).\n');
  });

  it('prints an edited paragraph from its nodes (the kept source no longer matches)', () => {
    const doc = read('Press <span>big</span> now.\n');
    const leaf = (doc.nodes[0] as DocumentBlock).nodes![0] as { leaves: Array<{ text: string }> };
    leaf.leaves[0].text = 'Press big later.';
    expect(documentToMarkdown(doc as Document)).toBe('Press big later.\n');
  });
});
