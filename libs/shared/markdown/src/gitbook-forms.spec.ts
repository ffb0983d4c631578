import { documentToMarkdown, markdownToDocument, type DocumentBlock } from './index';
import { emptySpace } from './testing/real-corpus';
import { validateLatest } from './testing/support';

/** Forms GitBook writes, read into a space that holds none of the pages and files they point to. */
const read = (md: string) => markdownToDocument(md, emptySpace).document;
const blocks = (md: string) => read(md).nodes as DocumentBlock[];
const print = (md: string) => documentToMarkdown(read(md));
/** md1 → md2 → md3: returns md2 and asserts md3 === md2 and a valid document. */
function stable(md: string): string {
  const md2 = print(md);
  expect(print(md2)).toBe(md2);
  const document = read(md);
  expect(validateLatest(document) ? [] : validateLatest.errors).toEqual([]);
  return md2;
}

describe('references the space does not hold', () => {
  it('keeps a content-ref to a missing page as written', () => {
    const md = '{% content-ref url="../guides/setup.md" %}\n[setup.md](../guides/setup.md)\n{% endcontent-ref %}\n';
    expect(blocks(md)[0]).toMatchObject({ type: 'content-ref', data: { ref: { kind: 'url', url: '../guides/setup.md' } } });
    expect(stable(md)).toBe(md);
  });

  it('keeps a figure whose image file is missing, with its source as written', () => {
    const md = '<figure><img src="../.gitbook/assets/image (3).png" alt=""><figcaption><p>The dashboard</p></figcaption></figure>\n';
    expect(blocks(md)[0]).toMatchObject({ type: 'images', nodes: [{ type: 'image', data: { ref: { kind: 'url', url: '../.gitbook/assets/image (3).png' } } }] });
    expect(stable(md)).toBe(md);
  });

  it('keeps a {% file %} of a missing file as a content-ref to its source (a file block needs a file of the space)', () => {
    expect(stable('{% file src="../.gitbook/assets/spec.pdf" %}\nSpec\n{% endfile %}\n')).toBe(
      '{% content-ref url="../.gitbook/assets/spec.pdf" %}\n[spec.pdf](../.gitbook/assets/spec.pdf)\n{% endcontent-ref %}\n',
    );
  });
});

describe('GitBook forms print back the same way', () => {
  it('writes a block image without a caption as a <figure>, like GitBook', () => {
    const md = '<figure><img src="https://example.com/a.png" alt="A"><figcaption></figcaption></figure>\n';
    expect(stable(md)).toBe(md);
    expect(stable('![A](https://example.com/a.png)\n')).toBe(md);
  });

  it('writes inline maths between double dollars; a single dollar is a dollar sign, never maths', () => {
    const md = 'The error is $$2^{-64}$$ at most.\n';
    expect(stable(md)).toBe(md);
    const php = '### translate(?string $locale = null, bool $withFallback = false)\n\nIt costs $5 or $10.\n';
    expect(JSON.stringify(blocks(php))).not.toContain('inline-math');
    expect(stable(php)).not.toContain('$$');
    expect(stable(php)).toContain('$locale = null, bool');
  });

  it('keeps a <br> in a table header cell', () => {
    const md = '| Name | Code scan<br>(plugin) |\n| ---- | --------------------- |\n| a    | b                     |\n';
    expect(stable(md)).toBe(md);
  });

  it('reads several tags on one line (`{% stepper %} {% step %}`)', () => {
    const md = '{% stepper %} {% step %}\n### One\n\nFirst.\n{% endstep %} {% step %}\n### Two\n{% endstep %} {% endstepper %}\n';
    const [stepper] = blocks(md);
    expect(stepper).toMatchObject({ type: 'stepper', nodes: [{ type: 'stepper-step' }, { type: 'stepper-step' }] });
    expect(stable(md)).toContain('{% stepper %}\n{% step %}\n### One');
  });
});

describe('HTML forms Git Sync writes', () => {
  it('reads a code block with highlighted lines (<pre> with <strong> lines) and writes it back the same way', () => {
    const md =
      '<pre class="language-js" data-title="app.js" data-line-numbers><code class="lang-js">import a from "a";\n<strong>const b = a &#x3C; 2;\n</strong>run(b);</code></pre>\n';
    const [code] = blocks(md);
    expect(code).toMatchObject({ type: 'code', data: { syntax: 'js', title: 'app.js', lineNumbers: true } });
    expect(code.nodes?.map((l) => (l as DocumentBlock).data)).toEqual([{}, { highlighted: true }, {}]);
    expect((code.nodes?.[1] as DocumentBlock).nodes).toMatchObject([{ leaves: [{ text: 'const b = a < 2;' }] }]);
    expect(stable(md)).toBe(md);
  });

  it('reads an HTML table with column widths as a grid table and writes it back as HTML', () => {
    const md =
      '<table><thead><tr><th width="160">Type</th><th>Example URL</th></tr></thead><tbody><tr><td><strong>Email</strong><br>HTML</td><td><code>https://api.example.com/v1/html</code></td></tr></tbody></table>\n';
    const [table] = blocks(md);
    expect(table).toMatchObject({ type: 'table', data: { view: { type: 'grid', columnWidths: { c0: 160 } }, definition: { c0: { title: 'Type' } } } });
    expect(table.fragments?.[0].nodes).toHaveLength(2);
    expect(JSON.stringify(table)).not.toContain('"link"');
    expect(stable(md)).toBe(md);
  });

  it('closes a block whose closing tag ends a line of text (`Done. {% endstep %}`)', () => {
    const md = '{% stepper %}\n{% step %}\nFirst. {% endstep %}\n\n{% step %}\nSecond.\n{% endstep %}\n{% endstepper %}\n';
    expect(blocks(md)[0]).toMatchObject({ type: 'stepper', nodes: [{ nodes: [{ type: 'paragraph' }] }, { nodes: [{ type: 'paragraph' }] }] });
    expect(stable(md)).toBe('{% stepper %}\n{% step %}\nFirst.\n{% endstep %}\n\n{% step %}\nSecond.\n{% endstep %}\n{% endstepper %}\n');
  });

  it('closes a block whose closing tag is indented into the list before it', () => {
    const md = '{% stepper %}\n{% step %}\n-   one\n-   two\n    {% endstep %}\n\n{% step %}\nNext.\n{% endstep %}\n{% endstepper %}\n';
    const [stepper] = blocks(md);
    expect(stepper.nodes).toHaveLength(2);
    expect(JSON.stringify(stepper)).not.toContain('endstep');
  });
});

describe('aligned paragraphs', () => {
  it('reads <p align="center"> with an image or a button as an aligned paragraph and writes it back as HTML', () => {
    const image = '<p align="center"><img src="../assets/comic.png" alt=""></p>\n';
    expect(blocks(image)[0]).toMatchObject({
      type: 'paragraph',
      data: { align: 'center' },
      nodes: [{ type: 'inline-image', data: { ref: { kind: 'url', url: '../assets/comic.png' } } }],
    });
    expect(stable(image)).toBe(image);
    const button = '<p align="right"><a href="https://example.com/start" class="button primary">Get started</a></p>\n';
    expect(blocks(button)[0]).toMatchObject({ data: { align: 'end' }, nodes: [{ type: 'button', data: { label: 'Get started', kind: 'primary' } }] });
    expect(stable(button)).toBe(button);
  });
});

describe('backslash line breaks', () => {
  it('reads a trailing `\\` at the end of a block as a line break and writes it back unchanged', () => {
    for (const md of ['{% hint style="info" %}\nCall us.\\\n{% endhint %}\n', 'First line.\\\n\nNext paragraph.\n', 'one\\\ntwo\n']) expect(stable(md)).toBe(md);
    expect(blocks('Call us.\\\n\nNext.\n')[0].nodes).toMatchObject([{ leaves: [{ text: 'Call us.\n' }] }]);
  });
});
