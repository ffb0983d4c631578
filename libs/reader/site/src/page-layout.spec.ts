import { LAYOUT_DEFAULTS } from '@bindery/shared/markdown';
import { serveSampleReader, ServedReader } from './testing/serve';

/** A page's stored layout options and cover, as the reader applies them (the sample's Welcome and "A wide page"). */
let r: ServedReader;
beforeAll(async () => {
  r = await serveSampleReader();
});
afterAll(() => r.close());

const html = async (path: string) => (await fetch(`${r.url}${path}`)).text();
const count = (body: string, fragment: string) => body.split(fragment).length - 1;

test('a hero cover sits above the title, one picture per theme, its box sized before the pictures load', async () => {
  const body = await html('/acme-inc/acme/');
  const cover = /<div class="page-cover page-cover-hero" style="height:180px">(.*?)<\/div>/.exec(body);
  expect(cover).not.toBeNull();
  expect(cover![1]).toBe(
    '<img class="only-light" src="/acme-inc/acme/~files/f-cover/cover.png" alt="" style="object-position:50% calc(50% + 0px)">' +
      '<img class="only-dark" src="/acme-inc/acme/~files/f-cover-dark/cover-dark.png" alt="" style="object-position:50% calc(50% + 0px)">',
  );
  expect(body.indexOf('page-cover-hero')).toBeLessThan(body.indexOf('<h1>'));
  // the default layout: page tree, menu button, description, pagination
  expect([count(body, 'id="site-nav"'), count(body, 'class="nav-toggle"'), count(body, 'class="page-description"'), count(body, 'class="pagination"')]).toEqual([1, 1, 1, 1]);
});

test('a wide page with a full cover and no page tree, description or pagination; its outline above the content', async () => {
  const body = await html('/acme-inc/acme/wide');
  expect(body).toContain(
    '<div class="page-cover page-cover-full" style="height:240px"><img src="/acme-inc/acme/~files/f-cover/cover.png" alt="" style="object-position:50% calc(50% + -20px)"></div><div class="layout layout-no-nav layout-wide">',
  );
  expect([count(body, 'id="site-nav"'), count(body, 'class="nav-toggle"'), count(body, 'class="pagination"'), count(body, 'class="toc"')]).toEqual([0, 0, 0, 0]);
  // the description is not shown on the page, but still describes it to search engines
  expect(count(body, 'class="page-description"')).toBe(0);
  expect(body).toContain('<meta name="description" content="Shown only in the head.">');
  expect(body).toContain('<details class="toc-inline"><summary>On this page</summary>');
  expect(body).toContain('<h1>A wide page</h1>');
});

test('a hidden title stays for assistive technologies; a hidden cover is not shown', async () => {
  // The sample has no such page: the same page rendered with other options, through the fixture's source.
  const { pageLayoutOf } = await import('./page-layout');
  const ctx = { link: () => ({ href: '/c.png' }), file: () => undefined, reusableContent: () => undefined };
  const page = { id: 'p', type: 'document' as const, title: 'T', cover: { ref: { kind: 'url', url: 'https://x/c.png' }, yPos: 0 } };
  expect(pageLayoutOf({ ...page, layout: { ...LAYOUT_DEFAULTS, cover: false, title: false } }, ctx)).toEqual({
    wide: false,
    title: false,
    description: true,
    nav: true,
    outline: true,
    pagination: true,
  });
  expect(pageLayoutOf({ ...page, layout: { ...LAYOUT_DEFAULTS, coverSize: 'background' as 'full' }, cover: { ...page.cover, height: 5000 } }, ctx).cover).toEqual({
    size: 'full',
    html: '<div class="page-cover page-cover-full" style="height:800px"><img src="/c.png" alt="" style="object-position:50% calc(50% + 0px)"></div>',
  });
  const { pageMain } = await import('./layout');
  expect(pageMain({ title: 'T', crumbs: [], html: '', showTitle: false })).toContain('<h1 class="visually-hidden">T</h1>');
});
