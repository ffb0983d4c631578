import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brandCss, brandOf, safeLinkUrl } from './brand';
import { contrast, cssColor, DARK_BG, LIGHT_BG } from './brand-colors';
import { FixtureSource } from './fixture-source';
import { createReader } from './reader';
import { brandedSample, brandSettings } from './sample-branded-site';
import { sampleSites } from './sample-site';
import type { SiteView } from './source';

const siteWith = (settings: Record<string, unknown>): SiteView => ({
  id: 's',
  organizationId: 'o',
  title: 'Site',
  visibility: 'public',
  version: '1',
  basePath: '/o/s',
  url: 'http://reader.invalid/o/s',
  structure: [],
  siteSpaces: [],
  customization: { site: settings, siteSpaces: {}, custom: true },
});
const varsOf = (css: string, name: string) => [...css.matchAll(new RegExp(`${name}: (#[0-9a-f]{6})`, 'g'))].map((m) => m[1]);

describe('the brand in CSS', () => {
  test('only #rgb / #rrggbb colours reach CSS, never text of the settings', () => {
    expect(cssColor('#ABC')).toBe('#aabbcc');
    expect(cssColor('#1a2B3c')).toBe('#1a2b3c');
    for (const bad of ['red;}body{display:none', 'red', '#12345', '#1234567', 'url(x)', '#abc;', ' #abcdef']) expect(cssColor(bad)).toBeUndefined();
    const css = brandCss(brandOf(siteWith({ styling: { primaryColor: { light: 'red;}body{display:none', dark: '</style><script>' }, font: '"};body{' } }), undefined));
    expect(css).not.toMatch(/display|script|body|red/);
    expect(css).not.toContain('--link');
  });

  test('a primary colour too light (or too dark) for text is moved until it has AA contrast (4.5:1) on its backgrounds', () => {
    const css = brandCss(brandOf(siteWith({ styling: { primaryColor: { light: '#ffcc00', dark: '#1a237e' } } }), undefined));
    const [lightLink, darkLink] = varsOf(css, '--link');
    const [lightAccent, darkAccent] = varsOf(css, '--accent-bg');
    expect(contrast('#ffcc00', LIGHT_BG)).toBeLessThan(2);
    expect(contrast(lightLink, LIGHT_BG)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(lightLink, lightAccent)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(darkLink, DARK_BG)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(darkLink, darkAccent)).toBeGreaterThanOrEqual(4.5);
    // a colour that passes already is kept as given
    expect(varsOf(brandCss(brandOf(siteWith({ styling: { primaryColor: { light: '#0550ae', dark: '#6cb6ff' } } }), undefined)), '--link').slice(0, 2)).toEqual([
      '#0550ae',
      '#6cb6ff',
    ]);
  });

  test('corners and fonts come from fixed tables; a site that set nothing gets no stylesheet', () => {
    const css = brandCss(brandOf(siteWith({ styling: { corners: 'straight', font: 'RobotoSlab', monospaceFont: 'FiraCode' } }), undefined));
    expect(css).toContain('--radius: 0;');
    expect(css).toContain('--sans: "Roboto Slab", Georgia');
    expect(css).toContain('--mono: "Fira Code", ui-monospace');
    expect(brandCss(brandOf({ ...siteWith({}), customization: undefined }, undefined))).toBe('');
  });

  test('javascript: and other schemes never become links', () => {
    for (const bad of ['javascript:alert(1)', 'JavaScript:alert(1)', ' javascript:alert(1)', 'data:text/html,x', 'vbscript:x', '//evil.example/x'])
      expect(safeLinkUrl(bad)).toBeUndefined();
    expect(safeLinkUrl('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeLinkUrl('/acme/docs/page')).toBe('/acme/docs/page');
  });

  test("a site space's overrides win over the site's settings", () => {
    const site = siteWith({ title: 'Site brand' });
    site.customization!.siteSpaces['ss-de'] = { title: 'Deutsch' };
    expect(brandOf(site, 'ss-de').title).toBe('Deutsch');
    expect(brandOf(site, 'ss-en').title).toBe('Site brand');
  });
});

describe('a branded site through the reader', () => {
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const { sites, spaces } = sampleSites();
    const branded = brandedSample();
    const source = new FixtureSource([...sites, branded.site], [...spaces, branded.space]);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    server.on('request', createReader({ source, publicUrl: url }).handle);
    close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  });
  afterAll(() => close());
  const html = async (path: string) => (await fetch(`${url}${path}`)).text();

  test('header: the logo per theme instead of the title (alt = title), links and buttons, a menu of links; no unsafe link', async () => {
    const page = await html('/acme-inc/orbit/');
    expect(page).toContain('<title>Welcome | Orbit Handbook</title>');
    expect(page).toContain('<img class="site-logo only-light" src="https://cdn.example.com/orbit-light.png" alt="Orbit Handbook">');
    expect(page).toContain('<img class="site-logo only-dark" src="https://cdn.example.com/orbit-dark.png" alt="Orbit Handbook">');
    expect(page).toContain('<a class="header-link" href="/acme-inc/orbit/setup">Start</a>');
    expect(page).toContain('<a class="button button-primary" href="https://status.example.com/" target="_blank" rel="noopener">Status</a>');
    expect(page).toContain('<details><summary>Community</summary><ul><li><a href="https://forum.example.com/" target="_blank" rel="noopener">Forum</a></li></ul></details>');
    expect(page.toLowerCase()).not.toContain('javascript:');
    expect(page).not.toContain('>Bad<');
    expect(page).not.toContain('Sneaky');
  });

  test('favicon, colours in an inline style, the default theme, no toggle, no pagination, no trademark; external links in a new tab', async () => {
    const page = await html('/acme-inc/orbit/');
    expect(page).toMatch(/<link rel="icon" href="data:image\/svg\+xml,[^"]*%F0%9F%9B%B0[^"]*">/);
    expect(page).toMatch(/<style>:root \{ --radius: 999px; --radius-lg: 16px; --sans: Merriweather, Georgia[^<]*--link: #[0-9a-f]{6};/);
    expect(page).toContain('<html lang="en" class="no-js" data-theme="dark" data-theme-fixed>');
    expect(page).not.toContain('theme-toggle');
    expect(page).not.toContain('Published with Bindery');
    expect(page).not.toContain('rel="next"');
    expect(page).toContain('<a href="https://example.com/launch" target="_blank" rel="noopener">launch notes</a>');
    expect(page).toContain(
      '<div class="footer-group"><h2>Company</h2><ul><li><a href="https://orbit.example.com/about" target="_blank" rel="noopener">About us</a></li></ul></div>',
    );
    expect(page).toContain('<p class="copyright">© 2026 Orbit &lt;Inc&gt;</p>');
  });

  test('a site without customization looks as before', async () => {
    const page = await html('/acme-inc/acme/install');
    expect(page).not.toContain('<style>');
    expect(page).toContain('Published with Bindery');
    expect(page).toContain('theme-toggle');
    expect(page).toContain('<a class="site-title" href="/acme-inc/acme/">Acme Docs</a>');
    expect(brandSettings().title).toBe('Orbit Handbook');
  });
});
