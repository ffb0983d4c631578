import { markdownToDocument } from '@bindery/shared/markdown';
import type { Document, PageNode } from '@bindery/reader/render';
import type { FixtureSite, FixtureSpace } from './fixture-source';
import type { CustomizationSettings } from './source';
import { gradientPng } from './sample-site';

const page = (id: string, title: string, path: string): PageNode => ({ id, type: 'document', title, slug: path, path, pages: [] });
const doc = (markdown: string) => markdownToDocument(markdown).document as Document;

/** A customization using every field the reader applies (docs/reader.md, "What each customization field does"). */
export function brandSettings(logos?: { light: string; dark: string }): CustomizationSettings {
  return {
    title: 'Orbit Handbook',
    styling: {
      primaryColor: { light: '#ffcc00', dark: '#1a237e' },
      tint: { color: { light: '#ff6600', dark: '#ff6600' } },
      corners: 'circular',
      font: 'Merriweather',
      monospaceFont: 'JetBrainsMono',
    },
    favicon: { emoji: '🛰' },
    header: {
      logo: logos ?? { light: 'https://cdn.example.com/orbit-light.png', dark: 'https://cdn.example.com/orbit-dark.png' },
      links: [
        { title: 'Start', to: { kind: 'page', page: 'b-setup' }, links: [], style: 'link' },
        { title: 'Status', to: { kind: 'url', url: 'https://status.example.com' }, links: [], style: 'button-primary' },
        { title: 'Bad', to: { kind: 'url', url: 'javascript:alert(1)' }, links: [] },
        {
          title: 'Community',
          to: null,
          links: [
            { title: 'Forum', to: { kind: 'url', url: 'https://forum.example.com' } },
            { title: 'Sneaky', to: { kind: 'url', url: 'JavaScript:alert(2)' } },
          ],
        },
      ],
    },
    footer: {
      logo: logos ? { light: logos.light, dark: logos.light } : { light: 'https://cdn.example.com/orbit-footer.png', dark: 'https://cdn.example.com/orbit-footer.png' },
      copyright: '© 2026 Orbit <Inc>',
      groups: [{ title: 'Company', links: [{ title: 'About us', to: { kind: 'url', url: 'https://orbit.example.com/about' } }] }],
    },
    themes: { default: 'dark', toggeable: false },
    trademark: { enabled: false },
    pagination: { enabled: false },
    externalLinks: { target: 'blank' },
  };
}

const logo = (id: string, name: string, from: [number, number, number], to: [number, number, number]) => {
  const bytes = gradientPng(160, 32, from, to);
  return { id, name, contentType: 'image/png', size: bytes.length, dimensions: { width: 160, height: 32 }, bytes };
};

/**
 * Organization `acme-inc`'s branded site `orbit` and its space (two pages, an external link). With
 * `origin` (where the reader serves), its header logos are files of its space served by the reader.
 */
export function brandedSample(origin?: string): { site: FixtureSite; space: FixtureSpace } {
  const files = `${origin}/acme-inc/orbit/~files`;
  const logos = origin ? { light: `${files}/f-logo-light/logo-light.png`, dark: `${files}/f-logo-dark/logo-dark.png` } : undefined;
  return {
    site: {
      id: 'site-orbit',
      organizationId: 'org-acme',
      organization: 'acme-inc',
      title: 'Orbit',
      basename: 'orbit',
      visibility: 'public',
      published: true,
      siteSpaces: [{ id: 'ss-orbit', title: 'Orbit', path: '', spaceId: 'space-orbit', default: true }],
      customization: { site: brandSettings(logos), siteSpaces: {}, custom: true },
    },
    space: {
      id: 'space-orbit',
      revisionId: 'rev-orbit-1',
      pages: [page('b-welcome', 'Welcome', 'welcome'), page('b-setup', 'Setup', 'setup')],
      documents: {
        'b-welcome': doc('Read the [launch notes](https://example.com/launch) first.'),
        'b-setup': doc('Set the orbit up.'),
      },
      files: [logo('f-logo-light', 'logo-light.png', [40, 40, 120], [200, 120, 0]), logo('f-logo-dark', 'logo-dark.png', [255, 220, 120], [120, 200, 255])],
    },
  };
}
