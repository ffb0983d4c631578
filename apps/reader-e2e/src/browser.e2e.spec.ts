import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { serveSampleReader, ServedReader } from '@bindery/reader/site';
import { seriousViolations as axeViolations } from './axe';
import { Browser, launchChromium } from './chromium';

/**
 * The reader in a real browser: headless Chromium (Debian's package) opens the sample site, follows
 * its navigation, switches section and variant, searches, toggles dark mode, and checks every page
 * it visits with axe-core. Screenshots of the rich page, light and dark, are kept in tmp/reader-browser.
 */
const ARTIFACTS = resolve(__dirname, '../../../tmp/reader-browser');

let reader: ServedReader;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  reader = await serveSampleReader();
  browser = await launchChromium();
  page = await browser.context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await reader?.close();
});

const seriousViolations = () => axeViolations(page);

const h1 = () => page.locator('main h1').innerText();
const path = () => new URL(page.url()).pathname + new URL(page.url()).search;

test('the rich page renders, passes axe in light and dark, and is kept as screenshots', async () => {
  await page.goto(`${reader.url}/acme-inc/acme/rich`);
  expect(await h1()).toBe('Every block');
  // The page's script ran: no-js is gone, tabs switch, code blocks have copy buttons.
  expect(await page.evaluate(() => document.documentElement.className)).toBe('');
  await page.getByRole('tab', { name: 'yarn' }).click();
  expect(await page.getByRole('tabpanel', { name: 'yarn' }).isVisible()).toBe(true);
  expect(await page.getByRole('tabpanel', { name: 'npm' }).isVisible()).toBe(false);
  await page.getByRole('tab', { name: 'yarn' }).press('ArrowLeft');
  expect(await page.getByRole('tabpanel', { name: 'npm' }).isVisible()).toBe(true);
  // KaTeX's stylesheet and fonts load; images load with their dimensions.
  expect(await page.locator('.math-block .katex-html').first().isVisible()).toBe(true);
  expect(await page.locator('img[alt="The Acme logo"]').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(240);
  // two cards with one cover each, one with light and dark covers, one with a cover for both themes
  expect(await page.locator('.card-cover img').count()).toBe(5);
  expect(await seriousViolations()).toEqual([]);
  const light = join(ARTIFACTS, 'rich-page-light.png');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: light, fullPage: true });

  // Dark mode: the toggle switches and is remembered across pages.
  await page.getByRole('button', { name: /theme/ }).click();
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  expect(await page.getByRole('button', { name: /theme/ }).getAttribute('aria-pressed')).toBe('true');
  await page.reload();
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(13, 17, 23)');
  expect(await seriousViolations()).toEqual([]);
  const dark = join(ARTIFACTS, 'rich-page-dark.png');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: dark, fullPage: true });
  await page.getByRole('button', { name: /theme/ }).click();
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
  process.stdout.write(`reader screenshots: ${light} ${dark}\n`);
});

test('GitBook HTML forms: pictures, card covers and icons follow the theme; buttons and icons are named', async () => {
  await page.goto(`${reader.url}/acme-inc/acme/rich`);
  const shown = (selector: string) => page.locator(selector).evaluate((el) => getComputedStyle(el).display !== 'none');
  const light = 'img[alt="The Acme logo, light or dark"].only-light';
  const dark = 'img[alt="The Acme logo, light or dark"].only-dark';
  const darkCover = '.card-cover img[src$="cover-dark.png"]';
  const lightCover = '.card-cover img.only-light[src$="cover.png"]';
  expect([await shown(light), await shown(dark), await shown(lightCover), await shown(darkCover)]).toEqual([true, false, true, false]);
  expect(await page.locator('p.align-center > a.button.button-primary', { hasText: 'Get started' }).count()).toBe(1);
  expect(await page.locator('p.align-center > a.button.button-secondary', { hasText: 'Configure' }).count()).toBe(1);
  expect(await page.getByRole('img', { name: 'circle check' }).innerText()).toBe('✓');
  expect(await page.locator('.align-center', { hasText: 'A centred heading' }).count()).toBe(1);
  expect(await page.locator('main').innerText()).toContain('HTML that has no block of its own shows as its text.');
  // the section alone, from its heading down, once the images shown in this theme have loaded
  const loaded = async () => {
    await page.evaluate(() => document.querySelectorAll('img[loading="lazy"]').forEach((img) => ((img as HTMLImageElement).loading = 'eager')));
    await page.waitForFunction(() => Array.from(document.images).every((img) => getComputedStyle(img).display === 'none' || (img.complete && img.naturalWidth > 0)));
  };
  await loaded();
  const clip = async () => ({
    x: 0,
    y: await page.evaluate(() => document.querySelector('#gitbook-html')!.getBoundingClientRect().top + window.scrollY - 16),
    width: 1280,
    height: 980,
  });
  await page.screenshot({ path: join(ARTIFACTS, 'html-forms-light.png'), fullPage: true, clip: await clip() });

  await page.getByRole('button', { name: /theme/ }).click();
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  // the dark picture loads once shown, with its own file
  await page.locator(dark).scrollIntoViewIfNeeded();
  await page.waitForFunction((sel) => (document.querySelector(sel) as HTMLImageElement | null)?.naturalWidth === 240, dark);
  expect([await shown(light), await shown(dark), await shown(lightCover), await shown(darkCover)]).toEqual([false, true, false, true]);
  expect(await seriousViolations()).toEqual([]);
  await loaded();
  await page.screenshot({ path: join(ARTIFACTS, 'html-forms-dark.png'), fullPage: true, clip: await clip() });
  await page.getByRole('button', { name: /theme/ }).click();
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
});

test('axe-core is live: a page with an image without text fails it', async () => {
  await page.goto(`${reader.url}/acme-inc/acme/configure`);
  await page.evaluate(() => document.querySelector('main')?.insertAdjacentHTML('beforeend', '<img src="/x.png">'));
  expect(await seriousViolations()).toEqual([expect.stringMatching(/^image-alt \(critical\)/)]);
});

test('dark mode follows the system until the reader chooses', async () => {
  const fresh = await browser.context.newPage();
  try {
    await fresh.emulateMedia({ colorScheme: 'dark' });
    await fresh.evaluate(() => localStorage.clear()).catch(() => undefined);
    await fresh.goto(`${reader.url}/acme-inc/acme/`);
    await fresh.evaluate(() => localStorage.removeItem('bindery-theme'));
    await fresh.reload();
    expect(await fresh.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(13, 17, 23)');
    await fresh.emulateMedia({ colorScheme: 'light' });
    expect(await fresh.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)');
  } finally {
    await fresh.close();
  }
});

test('navigation: page tree, previous / next, breadcrumbs, sections, a section group, variants, search', async () => {
  await page.goto(`${reader.url}/acme-inc/acme/`);
  expect(await h1()).toBe('👋 Welcome');
  // The skip link is the first thing the keyboard reaches, and leads to the content.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');

  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Install', exact: true }).click();
  expect([path(), await h1()]).toEqual(['/acme-inc/acme/install', 'Install']);
  await page.getByRole('navigation', { name: 'Previous and next pages' }).getByRole('link', { name: /Next/ }).click();
  expect([path(), await h1()]).toEqual(['/acme-inc/acme/install/docker', 'With Docker']);
  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Install' }).click();
  expect(path()).toBe('/acme-inc/acme/install');
  expect(await seriousViolations()).toEqual([]);

  // Variants: the switcher keeps the page where the other variant has it.
  await page.locator('.variant-switcher summary').click();
  await page.getByRole('list', { name: 'Variants' }).getByRole('link', { name: 'v1' }).click();
  expect([path(), await h1()]).toEqual(['/acme-inc/acme/v1/install?fallback=root', 'Install (v1)']);
  await page.goto(`${reader.url}/acme-inc/acme/rich`);
  await page.locator('.variant-switcher summary').click();
  await page.getByRole('list', { name: 'Variants' }).getByRole('link', { name: 'v1' }).click();
  expect([path(), await h1()]).toEqual(['/acme-inc/acme/v1/', 'Welcome (v1)']);

  // Sections: a tab, and a section inside a group.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'API' }).click();
  expect([path(), await h1()]).toEqual(['/acme-inc/acme/api/', 'API overview']);
  await page.getByRole('navigation', { name: 'Sections' }).getByText('More').click();
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Blog' }).click();
  expect([path(), await h1()]).toEqual(['/acme-inc/acme/blog/', 'Hello world']);
  expect(await seriousViolations()).toEqual([]);

  // Search: from the header, then a result.
  await page.getByRole('searchbox', { name: 'Search this site' }).first().fill('docker');
  await page.getByRole('searchbox', { name: 'Search this site' }).first().press('Enter');
  await page.waitForURL(/~search/);
  expect(await page.getByRole('status').innerText()).toBe('2 results');
  expect(await seriousViolations()).toEqual([]);
  await page.getByRole('main').getByRole('link', { name: 'With Docker' }).click();
  expect([path(), await h1()]).toEqual(['/acme-inc/acme/install/docker', 'With Docker']);

  // A page that does not exist: a real 404, still inside the site.
  const missing = await page.goto(`${reader.url}/acme-inc/acme/no-such-page`);
  expect(missing?.status()).toBe(404);
  expect(await h1()).toBe('Page not found');
  expect(await seriousViolations()).toEqual([]);

  // An address of the form before sites were per organization: the browser follows the 301 to the site's URL.
  await page.goto(`${reader.url}/acme/install`);
  expect([path(), await h1()]).toEqual(['/acme-inc/acme/install', 'Install']);
  // Another organization's site of the same basename is its own.
  await page.goto(`${reader.url}/globex/acme/`);
  expect([path(), await h1()]).toEqual(['/globex/acme/', 'Globex home']);
});
