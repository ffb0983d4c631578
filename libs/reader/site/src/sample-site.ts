import { deflateSync } from 'node:zlib';
import { LAYOUT_DEFAULTS, markdownToDocument } from '@bindery/shared/markdown';
import type { ContentRef, Document, DocumentBlock, DocumentNode, PageNode } from '@bindery/reader/render';
import type { FixtureSite, FixtureSpace } from './fixture-source';

/**
 * Sample published sites for the reader's tests, its browser check and its bench: every block type
 * on one page, sections, a section group, variants, hidden and noIndex pages, and one site of each
 * visibility. Documents are written in GitBook Markdown where it can say it, in document JSON where
 * it cannot (reusable content, conditions, integrations, OpenAPI blocks, updates, annotations).
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf: Buffer) => {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A PNG of a diagonal gradient between two colours (RGB), made here so the samples carry no binary files. */
export function gradientPng(width: number, height: number, from: [number, number, number], to: [number, number, number]): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      for (let c = 0; c < 3; c++) row[1 + x * 3 + c] = Math.round(from[c] + (to[c] - from[c]) * t);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const text = (s: string): DocumentNode => ({ object: 'text', leaves: [{ object: 'leaf', text: s, marks: [] }] });
const para = (...nodes: DocumentNode[]): DocumentBlock => ({ object: 'block', type: 'paragraph', data: {}, nodes });
const block = (type: string, data: Record<string, unknown>, extra: Partial<DocumentBlock> = {}): DocumentBlock => ({ object: 'block', type, data, ...extra });

/** Page paths → page ids, for links written in Markdown (`install.md`, `install/docker.md`). */
function linkResolver(ids: Record<string, string>) {
  return (href: string): ContentRef | null => {
    const [file, anchor] = href.split('#');
    const path = file
      .replace(/^\.\//, '')
      .replace(/\/README\.md$|\.md$/, '')
      .replace(/^\/+/, '');
    const page = ids[path];
    if (!page) return null;
    return anchor ? { kind: 'anchor', page, anchor } : { kind: 'page', page };
  };
}

function md(markdown: string, ids: Record<string, string>, files: Record<string, string> = {}): Document {
  return markdownToDocument(markdown, {
    resolveLink: linkResolver(ids),
    resolveFile: (src) => {
      const id = files[src.replace(/^\.\//, '').replace(/^\.gitbook\/assets\//, '')];
      return id ? { kind: 'file', file: id } : null;
    },
  }).document as Document;
}

const page = (id: string, title: string, path: string, extra: Partial<PageNode> = {}): PageNode => ({
  id,
  type: 'document',
  title,
  slug: path.split('/').pop(),
  path,
  pages: [],
  ...extra,
});

const RICH_MARKDOWN = `Everything a page can hold, as readers see it. Text can be **bold**, *italic*, \`code\`, ~~struck~~, <kbd>Ctrl</kbd>+<kbd>K</kbd>, x<sup>2</sup>, H<sub>2</sub>O and <mark style="color:red;">coloured</mark>. Links go to [another page](install.md), to [a section of it](install.md#requirements) and to [the web](https://example.com). Inline maths: $$e^{i\\pi} + 1 = 0$$. Emoji: 🚀.

## Lists

- One
- Two
  - Two and a half
- Three

1. First
2. Second

- [x] Write the docs
- [ ] Publish them

## Hints

{% hint style="info" %}
**Info:** the reader renders every block on the server.
{% endhint %}

{% hint style="success" %}
It worked.
{% endhint %}

{% hint style="warning" %}
Careful with this setting.
{% endhint %}

{% hint style="danger" %}
This deletes everything.
{% endhint %}

## Code

{% code title="server.js" lineNumbers="true" %}
\`\`\`javascript
import { createServer } from 'node:http';

// Answers every request with a greeting.
createServer((req, res) => res.end('hello')).listen(8090);
\`\`\`
{% endcode %}

\`\`\`python
def greet(name: str) -> str:
    return f"Hello, {name}"
\`\`\`

## Tabs

{% tabs %}
{% tab title="npm" %}
\`\`\`bash
npm install acme
\`\`\`
{% endtab %}

{% tab title="yarn" %}
\`\`\`bash
yarn add acme
\`\`\`
{% endtab %}
{% endtabs %}

## Expandable

<details>

<summary>What happens on publish?</summary>

The site becomes reachable at its URL and the reader serves it.

</details>

## Stepper

{% stepper %}
{% step %}
### Install

Run the installer.
{% endstep %}

{% step %}
### Configure

Set the environment variables.
{% endstep %}
{% endstepper %}

## Columns

{% columns %}
{% column width="50%" %}
Left column with some text that wraps across lines.
{% endcolumn %}

{% column width="50%" %}
Right column, next to it.
{% endcolumn %}
{% endcolumns %}

## Table

| Plan | Seats | Support |
| --- | ---: | :---: |
| Free | 1 | Community |
| Team | 10 | Email |
| Enterprise | Unlimited | Dedicated |

## Cards

<table data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="files"></th></tr></thead><tbody><tr><td><strong>Install</strong></td><td>Get it running</td><td><a href="install.md">install.md</a></td><td><a href=".gitbook/assets/cover.png">cover.png</a></td></tr><tr><td><strong>Configure</strong></td><td>Make it yours</td><td><a href="configure.md">configure.md</a></td><td><a href=".gitbook/assets/cover.png">cover.png</a></td></tr></tbody></table>

## GitBook HTML

<h3 align="center">A centred heading</h3>

<p align="center"><a href="install.md" class="button primary">Get started</a> <a href="configure.md" class="button secondary">Configure</a></p>

The logo <picture><source srcset=".gitbook/assets/logo-dark.png" media="(prefers-color-scheme: dark)"><img src=".gitbook/assets/logo.png" alt="Acme" data-size="line"></picture> follows the theme; icons too: <i class="fa-rocket">:rocket:</i> <i class="fa-circle-check">:circle-check:</i>.

<figure><picture><source srcset=".gitbook/assets/logo-dark.png" media="(prefers-color-scheme: dark)"><img src=".gitbook/assets/logo.png" alt="The Acme logo, light or dark"></picture><figcaption><p>A picture with a dark variant</p></figcaption></figure>

<table data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="image">Cover image</th><th data-hidden data-card-cover-dark data-type="image">Cover image (dark)</th></tr></thead><tbody><tr><td><h4><i class="fa-rocket">:rocket:</i> Launch</h4></td><td>Light and dark covers</td><td><a href="install.md">install.md</a></td><td><a href=".gitbook/assets/cover.png">cover.png</a></td><td><a href=".gitbook/assets/cover-dark.png">cover-dark.png</a></td></tr><tr><td><h4><i class="fa-gear">:gear:</i> Tune</h4></td><td>One cover for both themes</td><td><a href="configure.md">configure.md</a></td><td data-object-fit="contain"><a href=".gitbook/assets/logo.png">logo.png</a></td><td></td></tr></tbody></table>

<div class="note">HTML that has no block of its own <span>shows as its text</span>.</div>

## Maths

$$
\\int_0^1 x^2\\,dx = \\frac{1}{3}
$$

## Images and files

<figure><img src=".gitbook/assets/logo.png" alt="The Acme logo"><figcaption><p>The Acme logo, with a caption</p></figcaption></figure>

{% file src=".gitbook/assets/guide.pdf" %}

## Embeds and references

{% embed url="https://www.youtube.com/watch?v=dQw4w9WgXcQ" %}

{% content-ref url="configure.md" %}
[configure.md](configure.md)
{% endcontent-ref %}

> A quotation, set apart.

---

That is all.
`;

/** The blocks Markdown cannot say, as document JSON. */
function jsonBlocks(): DocumentBlock[] {
  return [
    block('heading-1', {}, { nodes: [text('More blocks')] }),
    block('reusable-content', { ref: { kind: 'reusable-content', reusableContent: 'rc-support' } }),
    block('if', { expression: 'visitor.claims.plan === "pro"' }, { nodes: [para(text('Only pro readers see this.'))] }),
    para(
      text('An '),
      {
        object: 'inline',
        type: 'annotation',
        data: {},
        nodes: [text('annotated term')],
        fragments: [{ object: 'fragment', fragment: 'annotation-body', type: 'annotation-body', nodes: [para(text('What it means.'))] }],
      },
      text(', a mention of '),
      { object: 'inline', type: 'mention', data: { ref: { kind: 'page', page: 'p-install' } }, isVoid: true },
      text(', an icon '),
      { object: 'inline', type: 'icon', data: { icon: 'rocket', color: 'blue' }, isVoid: true },
      text(' and a button: '),
      { object: 'inline', type: 'button', data: { label: 'Get started', kind: 'primary', ref: { kind: 'page', page: 'p-install' } }, isVoid: true },
    ),
    block('drawing', { ref: { kind: 'file', file: 'f-logo' } }, { isVoid: true }),
    block('openapi-operation', { ref: { kind: 'openapi', spec: 'acme-api' }, path: '/pets', method: 'get' }, { isVoid: true }),
    block('integration', { integration: 'github', block: 'file', props: {}, url: 'https://github.com/example/acme' }, { isVoid: true }),
    block('updates', { format: 'full' }, { nodes: [block('update', { date: '2026-05-01T00:00:00.000Z' }, { nodes: [para(text('Version 2 is out.'))] })] }),
  ];
}

function rich(ids: Record<string, string>, files: Record<string, string>): Document {
  const doc = md(RICH_MARKDOWN, ids, files);
  return { ...doc, nodes: [...doc.nodes, ...jsonBlocks()] };
}

const GUIDE_IDS: Record<string, string> = { welcome: 'p-welcome', install: 'p-install', 'install/docker': 'p-docker', configure: 'p-configure', rich: 'p-rich' };
const GUIDE_FILES = { 'logo.png': 'f-logo', 'logo-dark.png': 'f-logo-dark', 'cover.png': 'f-cover', 'cover-dark.png': 'f-cover-dark', 'guide.pdf': 'f-pdf' };

function guidesV2(): FixtureSpace {
  const ids = GUIDE_IDS;
  const pages: PageNode[] = [
    page('p-welcome', 'Welcome', 'welcome', {
      description: 'Acme helps you publish documentation.',
      emoji: '1f44b',
      cover: { ref: { kind: 'file', file: 'f-cover' }, refDark: { kind: 'file', file: 'f-cover-dark' }, yPos: 0, height: 180 },
    }),
    {
      id: 'g-start',
      type: 'group',
      title: 'Getting started',
      slug: 'getting-started',
      path: 'getting-started',
      pages: [
        page('p-install', 'Install', 'install', { description: 'Install Acme.', pages: [page('p-docker', 'With Docker', 'install/docker')] }),
        page('p-configure', 'Configure', 'configure'),
      ],
    },
    page('p-rich', 'Every block', 'rich', { description: 'A page with every kind of block.' }),
    page('p-secret', 'Secret page', 'secret', { hidden: true }),
    page('p-internal', 'Internal notes', 'internal', { noIndex: true, pages: [page('p-internal-child', 'More internal notes', 'internal/more')] }),
    { id: 'p-github', type: 'link', title: 'GitHub', target: { kind: 'url', url: 'https://github.com/example/acme' } },
    page('p-layout', 'A wide page', 'wide', {
      description: 'Shown only in the head.',
      cover: { ref: { kind: 'file', file: 'f-cover' }, yPos: -20 },
      layout: { ...LAYOUT_DEFAULTS, width: 'wide', coverSize: 'full', description: false, tableOfContents: false, pagination: false, outline: true },
    }),
  ];
  return {
    id: 'space-guides-v2',
    revisionId: 'rev-guides-v2-1',
    pages,
    documents: {
      'p-welcome': md(
        'Welcome to **Acme**. Start with [Install](install.md), or read [every block](rich.md).\n\n{% hint style="info" %}\nThis is version 2.\n{% endhint %}\n',
        ids,
      ),
      'p-install': md(
        '## Requirements\n\nNode.js 22 or newer.\n\n## Steps\n\n```bash\nnpm install acme\n```\n\nThen [configure](configure.md) it, or run it [with Docker](install/docker.md).\n',
        ids,
      ),
      'p-docker': md('```bash\ndocker run acme/acme\n```\n', ids),
      'p-configure': md('Set `ACME_URL`.\n\n| Variable | Meaning |\n| --- | --- |\n| `ACME_URL` | Where Acme answers |\n', ids),
      'p-rich': rich(ids, GUIDE_FILES),
      'p-secret': md('Only for those who know the address.\n', ids),
      'p-internal': md('Internal notes, not listed in search or llms.txt.\n', ids),
      'p-internal-child': md('More internal notes.\n', ids),
      'p-layout': md('## First\n\nA page with a full-width cover, no page tree, no pagination.\n\n## Second\n\nIts outline is above it.\n', ids),
    },
    files: [
      { id: 'f-logo', name: 'logo.png', contentType: 'image/png', size: 0, dimensions: { width: 240, height: 120 }, bytes: gradientPng(240, 120, [9, 105, 218], [130, 80, 223]) },
      { id: 'f-cover', name: 'cover.png', contentType: 'image/png', size: 0, dimensions: { width: 320, height: 128 }, bytes: gradientPng(320, 128, [26, 127, 55], [9, 105, 218]) },
      {
        id: 'f-logo-dark',
        name: 'logo-dark.png',
        contentType: 'image/png',
        size: 0,
        dimensions: { width: 240, height: 120 },
        bytes: gradientPng(240, 120, [240, 246, 252], [255, 166, 87]),
      },
      {
        id: 'f-cover-dark',
        name: 'cover-dark.png',
        contentType: 'image/png',
        size: 0,
        dimensions: { width: 320, height: 128 },
        bytes: gradientPng(320, 128, [22, 27, 34], [130, 80, 223]),
      },
      { id: 'f-pdf', name: 'guide.pdf', contentType: 'application/pdf', size: 0, bytes: Buffer.from('%PDF-1.4\n% sample\n') },
    ].map((f) => ({ ...f, size: f.bytes.length })),
    reusableContents: {
      'rc-support': md('{% hint style="success" %}\nNeed help? Write to support@example.com.\n{% endhint %}\n', ids),
    },
  };
}

function guidesV1(): FixtureSpace {
  const ids = { welcome: 'v1-welcome', install: 'v1-install' };
  return {
    id: 'space-guides-v1',
    revisionId: 'rev-guides-v1-1',
    pages: [page('v1-welcome', 'Welcome (v1)', 'welcome'), page('v1-install', 'Install (v1)', 'install')],
    documents: { 'v1-welcome': md('This is version 1. [Install](install.md).\n', ids), 'v1-install': md('Download the v1 installer.\n', ids) },
  };
}

function simpleSpace(id: string, titles: Array<[string, string, string]>): FixtureSpace {
  const ids = Object.fromEntries(titles.map(([pid, , path]) => [path, pid]));
  return {
    id,
    revisionId: `rev-${id}-1`,
    pages: titles.map(([pid, title, path]) => page(pid, title, path)),
    documents: Object.fromEntries(titles.map(([pid, title]) => [pid, md(`About ${title.toLowerCase()}.\n\n## Details\n\nMore about ${title.toLowerCase()}.\n`, ids)])),
  };
}

/** The sample sites and their spaces (fresh objects on every call: tests may change them). */
export function sampleSites(): { sites: FixtureSite[]; spaces: FixtureSpace[] } {
  const spaces = [
    guidesV2(),
    guidesV1(),
    simpleSpace('space-api', [
      ['api-overview', 'API overview', 'overview'],
      ['api-auth', 'Authentication', 'authentication'],
    ]),
    simpleSpace('space-blog', [['blog-hello', 'Hello world', 'hello']]),
    simpleSpace('space-enterprise', [['ent-sso', 'Single sign-on', 'sso']]),
    simpleSpace('space-unlisted', [['u-home', 'Unlisted home', 'home']]),
    simpleSpace('space-team', [['t-home', 'Team handbook', 'handbook']]),
    simpleSpace('space-members', [['m-home', 'Members area', 'area']]),
    simpleSpace('space-members-pro', [['mp-home', 'Pro tips', 'tips']]),
    simpleSpace('space-draft', [['d-home', 'Draft', 'draft']]),
    simpleSpace('space-globex', [['g-home', 'Globex home', 'home']]),
  ];
  const single = (id: string, spaceId: string, title: string) => ({ id, title, path: '', spaceId, default: true });
  const sites: FixtureSite[] = [
    {
      id: 'site-acme',
      organizationId: 'org-acme',
      organization: 'acme-inc',
      title: 'Acme Docs',
      description: 'Documentation of Acme.',
      basename: 'acme',
      visibility: 'public',
      published: true,
      sections: [
        {
          id: 'sec-guides',
          title: 'Guides',
          path: 'guides',
          default: true,
          siteSpaces: [
            { id: 'ss-v2', title: 'v2', path: 'v2', spaceId: 'space-guides-v2', default: true },
            { id: 'ss-v1', title: 'v1', path: 'v1', spaceId: 'space-guides-v1' },
          ],
        },
        { id: 'sec-api', title: 'API', path: 'api', siteSpaces: [single('ss-api', 'space-api', 'API')] },
        { id: 'sec-blog', title: 'Blog', path: 'blog', siteSpaces: [single('ss-blog', 'space-blog', 'Blog')] },
        { id: 'sec-enterprise', title: 'Enterprise', path: 'enterprise', condition: 'enterprise', siteSpaces: [single('ss-ent', 'space-enterprise', 'Enterprise')] },
      ],
      groups: [{ id: 'grp-more', title: 'More', sectionIds: ['sec-blog', 'sec-enterprise'] }],
      redirects: { 'old-install': '/acme-inc/acme/install' },
    },
    {
      id: 'site-unlisted',
      organizationId: 'org-acme',
      organization: 'acme-inc',
      title: 'Unlisted Docs',
      basename: 'unlisted',
      visibility: 'unlisted',
      published: true,
      siteSpaces: [single('ss-unlisted', 'space-unlisted', 'Docs')],
    },
    {
      id: 'site-team',
      organizationId: 'org-acme',
      organization: 'acme-inc',
      title: 'Team Handbook',
      basename: 'team',
      visibility: 'share-link',
      published: true,
      shareKeys: { 'bshare-good-key': true, 'bshare-deactivated': false },
      siteSpaces: [single('ss-team', 'space-team', 'Handbook')],
    },
    {
      id: 'site-members',
      organizationId: 'org-acme',
      organization: 'acme-inc',
      title: 'Members',
      basename: 'members',
      visibility: 'visitor-auth',
      published: true,
      visitorTokens: { 'jwt-pro': { pro: true }, 'jwt-basic': { pro: false } },
      siteSpaces: [single('ss-members', 'space-members', 'Members'), { id: 'ss-members-pro', title: 'Pro', path: 'pro', spaceId: 'space-members-pro', condition: 'pro' }],
    },
    {
      // another organization's site of the same basename
      id: 'site-globex-acme',
      organizationId: 'org-globex',
      organization: 'globex',
      title: 'Globex on Acme',
      basename: 'acme',
      visibility: 'public',
      published: true,
      siteSpaces: [single('ss-globex', 'space-globex', 'Docs')],
    },
    {
      id: 'site-draft',
      organizationId: 'org-acme',
      organization: 'acme-inc',
      title: 'Draft',
      basename: 'draft',
      visibility: 'public',
      published: false,
      siteSpaces: [single('ss-draft', 'space-draft', 'Draft')],
    },
  ];
  return { sites, spaces };
}
