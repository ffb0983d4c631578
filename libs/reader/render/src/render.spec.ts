import { markdownToDocument } from '@bindery/shared/markdown';
import { renderDocument } from './render';
import type { ContentRef, Document, DocumentBlock, DocumentNode, RenderContext } from './types';

// Builders of document JSON in the official shapes.
const t = (text: string, ...marks: Array<string | { type: string; data: Record<string, unknown> }>): DocumentNode => ({
  object: 'text',
  leaves: [{ object: 'leaf', text, marks: marks.map((m) => (typeof m === 'string' ? { object: 'mark', type: m } : { object: 'mark', ...m })) }],
});
const b = (type: string, data: Record<string, unknown>, nodes?: DocumentNode[], fragments?: DocumentBlock['fragments']): DocumentBlock => ({
  object: 'block',
  type,
  data,
  ...(nodes ? { nodes } : {}),
  ...(fragments ? { fragments } : {}),
});
const p = (...nodes: DocumentNode[]) => b('paragraph', {}, nodes);
const inline = (type: string, data: Record<string, unknown>, nodes?: DocumentNode[], fragments?: DocumentBlock['fragments']): DocumentNode => ({
  object: 'inline',
  type,
  data,
  ...(nodes ? { nodes } : {}),
  ...(fragments ? { fragments } : {}),
});
const frag = (fragment: string, nodes: DocumentBlock[]) => ({ object: 'fragment' as const, fragment, type: fragment, nodes });
const doc = (...nodes: DocumentNode[]): Document => ({ object: 'document', data: {}, nodes });

const ctx: RenderContext = {
  link(ref: ContentRef) {
    if (ref.kind === 'url') return { href: String(ref.url) };
    if (ref.kind === 'page' && ref.page === 'p-install') return { href: '/docs/install', title: 'Install', emoji: '🚀' };
    if (ref.kind === 'anchor') return { href: `${ref.page === 'p-install' ? '/docs/install' : ''}#${String(ref.anchor)}` };
    if (ref.kind === 'user') return undefined;
    return undefined;
  },
  file(id) {
    if (id === 'f-logo') return { id, name: 'logo.png', contentType: 'image/png', size: 2048, dimensions: { width: 400, height: 200 }, url: '/docs/~files/f-logo/logo.png' };
    if (id === 'f-dark')
      return { id, name: 'logo-dark.png', contentType: 'image/png', size: 2048, dimensions: { width: 400, height: 200 }, url: '/docs/~files/f-dark/logo-dark.png' };
    if (id === 'f-pdf') return { id, name: 'guide.pdf', contentType: 'application/pdf', size: 1536000, url: '/docs/~files/f-pdf/guide.pdf' };
    return undefined;
  },
  reusableContent(ref) {
    return (ref as { reusableContent?: string }).reusableContent === 'rc-1' ? doc(p(t('Shared text'))) : undefined;
  },
  condition(expression) {
    return expression === 'visitor.claims.plan === "pro"' ? true : expression === 'false' ? false : undefined;
  },
};

const html = (...nodes: DocumentNode[]) => renderDocument(doc(...nodes), ctx).html;

describe('every block type: block → HTML', () => {
  const cases: Array<[string, DocumentNode[], string]> = [
    ['paragraph', [p(t('Hello'))], '<p>Hello</p>'],
    ['paragraph aligned', [b('paragraph', { align: 'center' }, [t('Mid')])], '<p class="align-center">Mid</p>'],
    ['paragraph aligned to the end', [b('paragraph', { align: 'end' }, [t('End')])], '<p class="align-right">End</p>'],
    ['heading aligned', [b('heading-2', { align: 'center' }, [t('Centred')])], '<h3 id="centred" class="align-center">Centred'],
    [
      'heading-1 (h2, anchor)',
      [b('heading-1', {}, [t('Get started')])],
      '<h2 id="get-started">Get started<a class="heading-anchor" href="#get-started" aria-label="Link to “Get started”">#</a></h2>',
    ],
    [
      'heading-2 with an id',
      [b('heading-2', { id: 'custom-id' }, [t('Setup')])],
      '<h3 id="custom-id">Setup<a class="heading-anchor" href="#custom-id" aria-label="Link to “Setup”">#</a></h3>',
    ],
    ['heading-3', [b('heading-3', {}, [t('Deep')])], '<h4 id="deep">Deep<a class="heading-anchor" href="#deep" aria-label="Link to “Deep”">#</a></h4>'],
    ['blockquote', [b('blockquote', {}, [p(t('Quoted'))])], '<blockquote><p>Quoted</p></blockquote>'],
    ['divider', [b('divider', {})], '<hr>'],
    ['list-unordered', [b('list-unordered', {}, [b('list-item', {}, [p(t('One'))]), b('list-item', {}, [p(t('Two'))])])], '<ul><li><p>One</p></li><li><p>Two</p></li></ul>'],
    ['list-ordered with start', [b('list-ordered', { start: 3 }, [b('list-item', {}, [p(t('Three'))])])], '<ol start="3"><li><p>Three</p></li></ol>'],
    [
      'list-tasks',
      [b('list-tasks', {}, [b('list-item', { checked: true }, [p(t('Done'))]), b('list-item', { checked: false }, [p(t('Todo'))])])],
      '<ul class="task-list"><li class="task task-done"><input type="checkbox" checked disabled aria-label="Done"><div class="task-body"><p>Done</p></div></li><li class="task"><input type="checkbox" disabled aria-label="Not done"><div class="task-body"><p>Todo</p></div></li></ul>',
    ],
    [
      'hint (style, role, label)',
      [b('hint', { style: 'warning' }, [p(t('Careful'))])],
      '<div class="hint hint-warning" role="note" aria-label="Warning"><span class="hint-icon" aria-hidden="true">⚠</span><div class="hint-body"><p>Careful</p></div></div>',
    ],
    [
      'code with title, highlighting, line numbers and a highlighted line',
      [
        b('code', { syntax: 'javascript', title: 'index.js', lineNumbers: true }, [
          b('code-line', {}, [t('const a = 1;')]),
          b('code-line', { highlighted: true }, [t('return a;')]),
        ]),
      ],
      '<figure class="code-block line-numbers" data-syntax="javascript"><figcaption class="code-title">index.js</figcaption><pre tabindex="0" aria-label="index.js"><code class="hljs language-javascript"><span class="line"><span class="hljs-keyword">const</span> a = <span class="hljs-number">1</span>;</span>\n<span class="line highlighted"><span class="hljs-keyword">return</span> a;</span></code></pre></figure>',
    ],
    [
      'code in an unknown language, wrapped',
      [b('code', { syntax: 'nosuchlang', overflow: 'wrap' }, [b('code-line', {}, [t('<b>x</b>')])])],
      '<figure class="code-block wrap" data-syntax="nosuchlang"><pre tabindex="0" aria-label="nosuchlang code"><code class="hljs"><span class="line">&#x3C;b>x&#x3C;/b></span></code></pre></figure>',
    ],
    [
      'image with caption and dimensions (from the file)',
      [b('images', {}, [b('image', { ref: { kind: 'file', file: 'f-logo' }, alt: 'Logo' }, undefined, [frag('caption', [p(t('Our logo'))])])])],
      '<div class="images align-center"><figure><img src="/docs/~files/f-logo/logo.png" alt="Logo" width="400" height="200" loading="lazy" decoding="async"><figcaption>Our logo</figcaption></figure></div>',
    ],
    [
      'image with a set width (height scaled) and a dark variant',
      [b('images', { align: 'left', withFrame: true }, [b('image', { ref: { kind: 'file', file: 'f-logo' }, refDark: { kind: 'file', file: 'f-dark' }, width: 200 })])],
      '<div class="images align-left frame"><figure><img src="/docs/~files/f-logo/logo.png" alt="" width="200" height="100" class="only-light" loading="lazy" decoding="async"><img src="/docs/~files/f-dark/logo-dark.png" alt="" width="200" height="100" class="only-dark" loading="lazy" decoding="async"></figure></div>',
    ],
    [
      'image by URL',
      [b('images', {}, [b('image', { ref: { kind: 'url', url: 'https://example.com/a.png' }, alt: 'A' })])],
      '<div class="images align-center"><figure><img src="https://example.com/a.png" alt="A" loading="lazy" decoding="async"></figure></div>',
    ],
    [
      'file (size and type)',
      [b('file', { ref: { kind: 'file', file: 'f-pdf' } })],
      '<div class="file-block"><span class="file-icon" aria-hidden="true">📄</span><div class="file-info"><a href="/docs/~files/f-pdf/guide.pdf" download="guide.pdf">guide.pdf</a><span class="file-meta">application/pdf · 1.5 MB</span></div></div>',
    ],
    [
      'drawing',
      [b('drawing', { ref: { kind: 'file', file: 'f-logo' } })],
      '<figure class="images drawing"><img src="/docs/~files/f-logo/logo.png" alt="Drawing" width="400" height="200" loading="lazy" decoding="async"></figure>',
    ],
    [
      'embed as a link',
      [b('embed', { url: 'https://www.youtube.com/watch?v=x' })],
      '<div class="embed"><span class="embed-host">www.youtube.com</span><a href="https://www.youtube.com/watch?v=x" rel="noopener nofollow">https://www.youtube.com/watch?v=x</a></div>',
    ],
    [
      'content-ref to a page (reader URL, title, emoji)',
      [b('content-ref', { ref: { kind: 'page', page: 'p-install' } })],
      '<a class="content-ref" href="/docs/install"><span class="content-ref-icon" aria-hidden="true">🚀</span><span class="content-ref-title">Install</span></a>',
    ],
    [
      'content-ref that resolves to nothing',
      [b('content-ref', { ref: { kind: 'page', page: 'gone' } })],
      '<div class="content-ref broken-link" role="note">A link to content that is not available.</div>',
    ],
    [
      'reusable-content in place',
      [b('reusable-content', { ref: { kind: 'reusable-content', reusableContent: 'rc-1' } })],
      '<div class="reusable-content"><p>Shared text</p></div>',
    ],
    [
      'reusable-content that is missing',
      [b('reusable-content', { ref: { kind: 'reusable-content', reusableContent: 'rc-x' } })],
      '<div class="unsupported unsupported-block" role="note" data-block="reusable-content">Reusable content cannot be shown here.</div>',
    ],
    [
      'expandable (open by default)',
      [b('expandable', { defaultExpanded: true }, undefined, [frag('expandable-title', [p(t('More'))]), frag('expandable-body', [p(t('Hidden text'))])])],
      '<details class="expandable" open><summary>More</summary><div class="expandable-body"><p>Hidden text</p></div></details>',
    ],
    [
      'tabs (ARIA tabs, first panel shown)',
      [b('tabs', {}, [b('tabs-item', { title: 'npm' }, [p(t('npm i'))]), b('tabs-item', { title: 'yarn' }, [p(t('yarn add'))])])],
      '<div class="tabs"><div role="tablist"><button type="button" role="tab" id="tabs-1-tab-0" aria-controls="tabs-1-panel-0" aria-selected="true" tabindex="0">npm</button><button type="button" role="tab" id="tabs-1-tab-1" aria-controls="tabs-1-panel-1" aria-selected="false" tabindex="-1">yarn</button></div><div role="tabpanel" id="tabs-1-panel-0" aria-labelledby="tabs-1-tab-0" tabindex="0" data-title="npm"><p>npm i</p></div><div role="tabpanel" id="tabs-1-panel-1" aria-labelledby="tabs-1-tab-1" hidden tabindex="0" data-title="yarn"><p>yarn add</p></div></div>',
    ],
    [
      'stepper',
      [b('stepper', {}, [b('stepper-step', {}, [p(t('First'))]), b('stepper-step', {}, [p(t('Second'))])])],
      '<ol class="stepper"><li class="step"><div class="step-body"><p>First</p></div></li><li class="step"><div class="step-body"><p>Second</p></div></li></ol>',
    ],
    [
      'columns with widths',
      [b('columns', {}, [b('column', { width: { value: 60, unit: '%' } }, [p(t('Left'))]), b('column', { width: 40, verticalAlignment: 'center' }, [p(t('Right'))])])],
      '<div class="columns"><div class="column" style="flex:60 1 0"><p>Left</p></div><div class="column valign-center" style="flex:40 1 0"><p>Right</p></div></div>',
    ],
    [
      'table, grid view (ordered records, alignment, checkbox, select)',
      [
        {
          object: 'block',
          type: 'table',
          isVoid: true,
          data: {
            view: { type: 'grid', columns: ['c0', 'c1', 'c2'], hideHeader: false },
            definition: {
              c0: { id: 'c0', title: 'Name', type: 'text', textAlignment: 'left' },
              c1: { id: 'c1', title: 'On', type: 'checkbox' },
              c2: { id: 'c2', title: 'Tier', type: 'select', multiple: false, options: [{ value: 'p', label: 'Pro', color: 'green' }] },
            },
            records: { r1: { orderIndex: 'a1', values: { c0: 'r1c0', c1: false, c2: 'p' } }, r0: { orderIndex: 'a0', values: { c0: 'r0c0', c1: true } } },
          },
          fragments: [frag('r0c0', [p(t('Alpha'))]), frag('r1c0', [p(t('Beta'))])],
        } as DocumentBlock,
      ],
      '<div class="table-wrap" role="region" aria-label="Table: Name, On, Tier" tabindex="0" data-block="table"><table><thead><tr><th scope="col">Name</th><th scope="col">On</th><th scope="col">Tier</th></tr></thead><tbody><tr><td><p>Alpha</p></td><td><input type="checkbox" checked disabled aria-label="Yes"></td><td></td></tr><tr><td><p>Beta</p></td><td><input type="checkbox" disabled aria-label="No"></td><td><span class="tag bg-green">Pro</span></td></tr></tbody></table></div>',
    ],
    [
      'table, cards view (cover, target link)',
      [
        {
          object: 'block',
          type: 'table',
          isVoid: true,
          data: {
            view: { type: 'cards', cardSize: 'medium', columns: ['t', 'target', 'cover'], targetDefinition: 'target', coverDefinition: 'cover' },
            definition: {
              t: { id: 't', title: 'Title', type: 'text', textAlignment: 'left' },
              target: { id: 'target', title: 'Target', type: 'content-ref' },
              cover: { id: 'cover', title: 'Cover', type: 'files' },
            },
            records: { r0: { orderIndex: 'a0', values: { t: 'r0t', target: { kind: 'page', page: 'p-install' }, cover: { kind: 'file', file: 'f-logo' } } } },
          },
          fragments: [frag('r0t', [p(t('Install'))])],
        } as DocumentBlock,
      ],
      '<ul class="cards cards-medium" data-block="table"><li class="card card-linked" data-record="r0"><div class="card-cover"><img src="/docs/~files/f-logo/logo.png" alt="" loading="lazy" decoding="async" width="400" height="200"></div><div class="card-body"><div class="card-field"><div class="card-field-title">Title</div><p>Install</p></div></div><a class="card-link" href="/docs/install" aria-label="Install"></a></li></ul>',
    ],
    ['if whose condition holds', [b('if', { expression: 'visitor.claims.plan === "pro"' }, [p(t('Pro only'))])], '<p>Pro only</p>'],
    ['if whose condition fails or is unknown: left out', [b('if', { expression: 'false' }, [p(t('No'))]), b('if', { expression: 'x' }, [p(t('No'))])], ''],
    [
      'integration (placeholder with its link)',
      [b('integration', { integration: 'github', block: 'file', props: {}, url: 'https://github.com/a/b' })],
      '<div class="unsupported unsupported-block" role="note" data-block="integration">Integration block “github” cannot be shown here. <a href="https://github.com/a/b" rel="noopener nofollow">Open it</a></div>',
    ],
    [
      'openapi-operation (placeholder naming the operation)',
      [b('openapi-operation', { ref: { kind: 'openapi', spec: 'petstore' }, path: '/pets', method: 'get' })],
      '<div class="openapi unsupported-block" role="note" data-block="openapi-operation"><code>GET /pets</code> (OpenAPI specification “petstore”) — the API reference is not shown here yet.</div>',
    ],
    ['swagger', [b('swagger', { method: 'post', path: '/x' })], '<code>POST /x</code>'],
    ['openapi-schemas', [b('openapi-schemas', { ref: { kind: 'openapi', spec: 's' }, schemas: ['Pet'] })], '<code>Schemas Pet</code>'],
    ['openapi-webhook', [b('openapi-webhook', { ref: { kind: 'openapi', spec: 's' }, name: 'created' })], '<code>Webhook created</code>'],
    [
      'math block (KaTeX, display, with MathML)',
      [b('math', { formula: 'E = mc^2' })],
      '<div class="math math-block"><span class="katex-display"><span class="katex"><span class="katex-mathml"><math',
    ],
    [
      'a block type the reader does not know',
      [b('future-widget', {})],
      '<div class="unsupported unsupported-block" role="note" data-block="future-widget">A “future-widget” block cannot be shown here.</div>',
    ],
  ];

  test.each(cases)('%s', (_name, nodes, expected) => {
    const out = html(...nodes);
    if (expected === '') expect(out).toBe('');
    else expect(out).toContain(expected);
  });
});

describe('every inline and mark: inline → HTML', () => {
  const cases: Array<[string, DocumentNode[], string]> = [
    ['bold', [t('b', 'bold')], '<p><strong>b</strong></p>'],
    ['italic', [t('i', 'italic')], '<p><em>i</em></p>'],
    ['code', [t('c', 'code')], '<p><code>c</code></p>'],
    ['keyboard', [t('K', 'keyboard')], '<p><kbd>K</kbd></p>'],
    ['strikethrough', [t('s', 'strikethrough')], '<p><s>s</s></p>'],
    ['superscript', [t('2', 'superscript')], '<p><sup>2</sup></p>'],
    ['subscript', [t('2', 'subscript')], '<p><sub>2</sub></p>'],
    ['color (text and background)', [t('red', { type: 'color', data: { text: 'red', background: '$warning' } })], '<p><span class="color text-red bg-warning">red</span></p>'],
    ['nested marks', [t('bi', 'bold', 'italic')], '<p><strong><em>bi</em></strong></p>'],
    ['line break in a leaf', [t('a\nb')], '<p>a<br>b</p>'],
    ['link to a URL', [inline('link', { ref: { kind: 'url', url: 'https://example.com' } }, [t('site')])], '<p><a href="https://example.com" rel="noopener">site</a></p>'],
    ['link to a page (reader URL)', [inline('link', { ref: { kind: 'page', page: 'p-install' } }, [t('install')])], '<p><a href="/docs/install">install</a></p>'],
    [
      'link to an anchor of a page',
      [inline('link', { ref: { kind: 'anchor', page: 'p-install', anchor: 'step-2' } }, [t('step')])],
      '<p><a href="/docs/install#step-2">step</a></p>',
    ],
    ['link that resolves to nothing: its text', [inline('link', { ref: { kind: 'page', page: 'gone' } }, [t('old')])], '<p><span class="broken-link">old</span></p>'],
    [
      'inline-image (line size)',
      [inline('inline-image', { ref: { kind: 'file', file: 'f-logo' }, alt: 'logo', size: 'line' })],
      '<p><img src="/docs/~files/f-logo/logo.png" alt="logo" class="inline-image size-line" width="400" height="200" loading="lazy" decoding="async"></p>',
    ],
    ['emoji', [inline('emoji', { code: '26a0-fe0f' })], '<p><span class="emoji">⚠️</span></p>'],
    ['icon', [inline('icon', { icon: 'rocket', color: 'blue' })], '<p><span class="icon text-blue" data-icon="rocket" role="img" aria-label="rocket">🚀</span></p>'],
    [
      'icon the reader has no symbol for: a neutral glyph labelled with its name in words',
      [inline('icon', { icon: 'users-viewfinder' })],
      '<p><span class="icon" data-icon="users-viewfinder" role="img" aria-label="users viewfinder">◆</span></p>',
    ],
    [
      'inline-image with a dark variant (shown in the dark theme instead)',
      [inline('inline-image', { ref: { kind: 'file', file: 'f-logo' }, refDark: { kind: 'file', file: 'f-dark' }, alt: 'logo' })],
      '<p><img src="/docs/~files/f-logo/logo.png" alt="logo" class="inline-image size-original only-light" width="400" height="200" loading="lazy" decoding="async"><img src="/docs/~files/f-dark/logo-dark.png" alt="logo" class="inline-image size-original only-dark" width="400" height="200" loading="lazy" decoding="async"></p>',
    ],
    [
      'button with an icon (decorative: the label says it)',
      [inline('button', { label: 'Start', kind: 'primary', icon: 'rocket', ref: { kind: 'page', page: 'p-install' } })],
      '<p><a href="/docs/install" class="button button-primary"><span class="icon" data-icon="rocket" aria-hidden="true">🚀</span> Start</a></p>',
    ],
    ['expression (as written)', [inline('expression', { expression: 'space.vars.version' })], '<p><code class="expression">space.vars.version</code></p>'],
    ['inline-math (KaTeX)', [inline('inline-math', { formula: 'a^2' })], '<p><span class="math math-inline"><span class="katex"><span class="katex-mathml"><math'],
    [
      'annotation',
      [inline('annotation', {}, [t('term')], [frag('annotation-body', [p(t('Its meaning'))])])],
      '<p><span class="annotation"><span class="annotation-text" tabindex="0">term</span><span class="annotation-body" role="note">Its meaning</span></span></p>',
    ],
    ['mention of a user', [inline('mention', { ref: { kind: 'user', user: 'ada' } })], '<p><span class="mention">@ada</span></p>'],
    ['mention of a page', [inline('mention', { ref: { kind: 'page', page: 'p-install' } })], '<p><a href="/docs/install" class="mention">Install</a></p>'],
    [
      'button',
      [inline('button', { label: 'Start', kind: 'primary', ref: { kind: 'page', page: 'p-install' } })],
      '<p><a href="/docs/install" class="button button-primary">Start</a></p>',
    ],
    [
      'button with an action only',
      [inline('button', { label: 'Ask', kind: 'secondary', action: { action: 'ask' } })],
      '<p><span class="button button-secondary button-inert">Ask</span></p>',
    ],
    ['an inline type the reader does not know', [inline('sparkle', {})], '<p><span class="unsupported unsupported-inline" title="Not shown here: sparkle">[sparkle]</span></p>'],
  ];

  test.each(cases)('%s', (_name, nodes, expected) => {
    expect(html(p(...nodes))).toContain(expected);
  });
});

describe('documents', () => {
  test('headings are collected for the table of contents with unique ids', () => {
    const { headings } = renderDocument(doc(b('heading-1', {}, [t('Setup')]), b('heading-2', {}, [t('Setup')]), b('heading-3', {}, [t('Déjà vu!')])), ctx);
    expect(headings).toEqual([
      { id: 'setup', level: 1, text: 'Setup' },
      { id: 'setup-1', level: 2, text: 'Setup' },
      { id: 'déjà-vu', level: 3, text: 'Déjà vu!' },
    ]);
  });

  test('text is escaped, never interpreted as HTML', () => {
    expect(html(p(t('<script>alert(1)</script>')))).toBe('<p>&#x3C;script>alert(1)&#x3C;/script></p>');
  });

  test('a javascript: or data: URL never becomes a link, an embed or an image', () => {
    expect(html(p(inline('link', { ref: { kind: 'url', url: 'javascript:alert(1)' } }, [t('x')])))).toBe('<p><span class="broken-link">x</span></p>');
    expect(html(p(inline('link', { ref: { kind: 'url', url: ' JavaScript:alert(1)' } }, [t('x')])))).toBe('<p><span class="broken-link">x</span></p>');
    expect(html(b('embed', { url: 'javascript:alert(1)' }))).toContain('unsupported-block');
    expect(html(b('images', {}, [b('image', { ref: { kind: 'url', url: 'data:image/svg+xml,<svg/>' } })]))).toContain('unsupported-block');
  });

  test('reusable contents that include themselves stop after a few levels', () => {
    const loop: RenderContext = { ...ctx, reusableContent: () => doc(b('reusable-content', { ref: { kind: 'reusable-content', reusableContent: 'loop' } })) };
    const out = renderDocument(doc(b('reusable-content', { ref: { kind: 'reusable-content', reusableContent: 'loop' } })), loop).html;
    expect(out.match(/class="reusable-content"/g)).toHaveLength(3);
    expect(out).toContain('Reusable content cannot be shown here.');
  });

  test('a multi-line comment keeps its highlighting on every line', () => {
    const out = html(b('code', { syntax: 'js' }, [b('code-line', {}, [t('/* one')]), b('code-line', {}, [t('two */ x')])]));
    expect(out).toContain('<span class="line"><span class="hljs-comment">/* one</span></span>\n<span class="line"><span class="hljs-comment">two */</span> x</span>');
  });
});

describe('HTML GitBook writes in Markdown, rendered like GitBook', () => {
  const fromMarkdown = (md: string) => renderDocument(markdownToDocument(md).document as Document, ctx).html;

  test('a cards table shows the light cover, or the dark one in the dark theme, and the image fit', () => {
    const out = fromMarkdown(
      '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-cover data-type="image">Cover image</th><th data-hidden data-card-cover-dark data-type="image">Cover image (dark)</th></tr></thead><tbody><tr><td><h4><i class="fa-rocket">:rocket:</i> Launch</h4></td><td data-object-fit="contain"><a href="https://example.com/light.png">light.png</a></td><td><a href="https://example.com/dark.png">dark.png</a></td></tr></tbody></table>\n',
    );
    expect(out).toContain('<div class="card-cover"><img src="https://example.com/light.png" alt="" class="only-light fit-contain"');
    expect(out).toContain('<img src="https://example.com/dark.png" alt="" class="only-dark"');
    expect(out).toContain('<span class="icon" data-icon="rocket" role="img" aria-label="rocket">🚀</span> Launch');
    expect(out).not.toContain(':rocket:');
  });

  test('a picture in a sentence and an aligned heading', () => {
    const out = fromMarkdown(
      '<h3 align="center">Hello</h3>\n\nSee <picture><source srcset="https://example.com/d.svg" media="(prefers-color-scheme: dark)"><img src="https://example.com/l.svg" alt="L"></picture> here.\n',
    );
    expect(out).toContain('<h3 id="hello" class="align-center">Hello');
    expect(out).toContain('<img src="https://example.com/l.svg" alt="L" class="inline-image size-original only-light"');
    expect(out).toContain('<img src="https://example.com/d.svg" alt="L" class="inline-image size-original only-dark"');
  });

  test('HTML no node holds shows as its text: never markup, never run', () => {
    const out = fromMarkdown('<div class="x"><span onclick="alert(1)">Fast</span> and <b>small</b><script>alert(2)</script></div>\n\nText with <u>underline</u>.\n');
    expect(out).toBe('<p>Fast and small</p><p>Text with underline.</p>');
  });
});
