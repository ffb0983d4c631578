import { LAYOUT_DEFAULTS, markdownToDocument } from '@bindery/shared/markdown';
import type { ContentRef, Document, DocumentBlock, PageNode } from '@bindery/reader/render';
import type { FixtureSite, FixtureSpace } from './fixture-source';
import type { CustomizationSettings } from './source';
import { gradientPng } from './sample-site';

/**
 * Organization `acme-inc`'s site `nimbus`: a customised site with what a product's documentation
 * usually shows at once — a logo per theme, brand colours, header links and a menu, a footer, page
 * covers (a hero cover per theme, a full-width one) and an API reference (operations of the
 * organization's spec `acme-api`). The browser check takes its screenshots, the bench serves its pages.
 */

const IDS: Record<string, string> = {
  overview: 'n-overview',
  quickstart: 'n-quickstart',
  'guides/authentication': 'n-auth',
  'guides/pagination': 'n-pagination',
  'guides/errors': 'n-errors',
  'pets-api': 'n-pets-api',
  changelog: 'n-changelog',
};

const md = (markdown: string): Document =>
  markdownToDocument(markdown, {
    resolveLink: (href) => {
      const [file, anchor] = href.split('#');
      const page = IDS[file.replace(/\.md$/, '')];
      return page ? ((anchor ? { kind: 'anchor', page, anchor } : { kind: 'page', page }) as ContentRef) : null;
    },
  }).document as Document;

const page = (id: string, title: string, path: string, extra: Partial<PageNode> = {}): PageNode => ({
  id,
  type: 'document',
  title,
  slug: path.split('/').pop(),
  path,
  pages: [],
  ...extra,
});

/** An operation of the organization's spec `acme-api`, as the editor stores it. */
export const apiOperation = (path: string, method: string): DocumentBlock =>
  ({ object: 'block', type: 'openapi-operation', data: { ref: { kind: 'openapi', spec: 'acme-api' }, path, method }, isVoid: true, nodes: [] }) as unknown as DocumentBlock;

/** The customization: every field the reader applies, with a theme toggle (both themes readable). */
export function showcaseSettings(files: string): CustomizationSettings {
  return {
    title: 'Nimbus Docs',
    styling: {
      primaryColor: { light: '#6d28d9', dark: '#c4b5fd' },
      tint: { color: { light: '#6d28d9', dark: '#6d28d9' } },
      corners: 'rounded',
      font: 'Inter',
      monospaceFont: 'JetBrainsMono',
    },
    favicon: { emoji: '☁' },
    header: {
      logo: { light: `${files}/n-logo-light/nimbus-light.png`, dark: `${files}/n-logo-dark/nimbus-dark.png` },
      links: [
        { title: 'Quickstart', to: { kind: 'page', page: 'n-quickstart' }, links: [], style: 'link' },
        { title: 'Status', to: { kind: 'url', url: 'https://status.example.com' }, links: [], style: 'button-primary' },
        {
          title: 'Community',
          to: null,
          links: [
            { title: 'Forum', to: { kind: 'url', url: 'https://forum.example.com' } },
            { title: 'Blog', to: { kind: 'url', url: 'https://blog.example.com' } },
          ],
        },
      ],
    },
    footer: {
      logo: { light: `${files}/n-logo-light/nimbus-light.png`, dark: `${files}/n-logo-dark/nimbus-dark.png` },
      copyright: '© 2026 Nimbus Cloud',
      groups: [
        {
          title: 'Product',
          links: [
            { title: 'Quickstart', to: { kind: 'page', page: 'n-quickstart' } },
            { title: 'Pets API', to: { kind: 'page', page: 'n-pets-api' } },
          ],
        },
        { title: 'Company', links: [{ title: 'About us', to: { kind: 'url', url: 'https://nimbus.example.com/about' } }] },
      ],
    },
    themes: { default: 'system', toggeable: true },
    externalLinks: { target: 'blank' },
  };
}

const png = (id: string, name: string, width: number, height: number, from: [number, number, number], to: [number, number, number]) => {
  const bytes = gradientPng(width, height, from, to);
  return { id, name, contentType: 'image/png', size: bytes.length, dimensions: { width, height }, bytes };
};

/** The space's pages: an overview with a hero cover per theme, guides, the API page with a full-width cover. */
export function showcasePages(): PageNode[] {
  return [
    page('n-overview', 'Overview', 'overview', {
      description: 'Nimbus stores and serves your pets’ records.',
      cover: { ref: { kind: 'file', file: 'n-cover' }, refDark: { kind: 'file', file: 'n-cover-dark' }, yPos: 0, height: 200 },
    }),
    page('n-quickstart', 'Quickstart', 'quickstart', { description: 'Your first request in five minutes.' }),
    {
      id: 'n-guides',
      type: 'group',
      title: 'Guides',
      slug: 'guides',
      path: 'guides',
      pages: [page('n-auth', 'Authentication', 'guides/authentication'), page('n-pagination', 'Pagination', 'guides/pagination'), page('n-errors', 'Errors', 'guides/errors')],
    },
    page('n-pets-api', 'Pets API', 'pets-api', {
      description: 'List, create and read pets.',
      cover: { ref: { kind: 'file', file: 'n-cover' }, refDark: { kind: 'file', file: 'n-cover-dark' }, yPos: 0, height: 160 },
      layout: { ...LAYOUT_DEFAULTS, coverSize: 'full' },
    }),
    page('n-changelog', 'Changelog', 'changelog'),
  ];
}

/** The API page's document: a paragraph and the spec's three operations. */
export function petsApiDocument(): Document {
  const doc = md('Every request carries a token ([Authentication](guides/authentication.md)). Lists are paged ([Pagination](guides/pagination.md)).\n');
  return { ...doc, nodes: [...doc.nodes, apiOperation('/pets', 'get'), apiOperation('/pets', 'post'), apiOperation('/pets/{petId}', 'get')] };
}

/** The site and its space. `origin`: where the reader serves (the logos are files of the space it serves). */
export function showcaseSample(origin: string): { site: FixtureSite; space: FixtureSpace } {
  return {
    site: {
      id: 'site-nimbus',
      organizationId: 'org-acme',
      organization: 'acme-inc',
      title: 'Nimbus',
      description: 'The Nimbus platform and its API.',
      basename: 'nimbus',
      visibility: 'public',
      published: true,
      siteSpaces: [{ id: 'ss-nimbus', title: 'Nimbus', path: '', spaceId: 'space-nimbus', default: true }],
      customization: { site: showcaseSettings(`${origin}/acme-inc/nimbus/~files`), siteSpaces: {}, custom: true },
    },
    space: {
      id: 'space-nimbus',
      revisionId: 'rev-nimbus-1',
      pages: showcasePages(),
      documents: {
        'n-overview': md(
          'Nimbus keeps a record of every pet in your shop and answers for it over HTTP.\n\n{% hint style="info" %}\nNew here? Start with the [Quickstart](quickstart.md).\n{% endhint %}\n\n## What you can do\n\n- List and search pets\n- Register a new pet\n- Read a pet by its id\n\nThe [Pets API](pets-api.md) page lists every operation.\n',
        ),
        'n-quickstart': md(
          '## Get a token\n\nCreate one in your account settings.\n\n## Call the API\n\n```bash\ncurl -H "Authorization: Bearer $NIMBUS_TOKEN" https://petstore.swagger.io/v1/pets\n```\n\n{% hint style="success" %}\nA `200` with a list of pets: you are set.\n{% endhint %}\n',
        ),
        'n-auth': md('Send your token as `Authorization: Bearer <token>`.\n\n## Scopes\n\nA token reads, or reads and writes.\n'),
        'n-pagination': md('Lists answer at most `limit` items (100 at most).\n\n## Next page\n\nFollow the `x-next` header.\n'),
        'n-errors': md('| Status | Meaning |\n| --- | --- |\n| `400` | The request is malformed |\n| `404` | No such pet |\n'),
        'n-pets-api': petsApiDocument(),
        'n-changelog': md('## 2026-11\n\nPets have tags.\n\n## 2026-10\n\nFirst release.\n'),
      },
      files: [
        png('n-logo-light', 'nimbus-light.png', 160, 32, [76, 29, 149], [109, 40, 217]),
        png('n-logo-dark', 'nimbus-dark.png', 160, 32, [237, 233, 254], [196, 181, 253]),
        png('n-cover', 'cover.png', 640, 200, [237, 233, 254], [109, 40, 217]),
        png('n-cover-dark', 'cover-dark.png', 640, 200, [30, 27, 75], [91, 33, 182]),
      ],
    },
  };
}
