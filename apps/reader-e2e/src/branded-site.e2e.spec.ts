import { mkdirSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { brandedSample, createReader, FixtureSource, sampleSites } from '@bindery/reader/site';
import { seriousViolations } from './axe';
import { Browser, launchChromium } from './chromium';

/** A customised site in a browser: logo per theme, brand colours readable, header links, no toggle. Screenshots in tmp/reader-browser. */
const ARTIFACTS = resolve(__dirname, '../../../tmp/reader-browser');

let server: Server;
let url: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { sites, spaces } = sampleSites();
  const branded = brandedSample(url);
  server.on('request', createReader({ source: new FixtureSource([...sites, branded.site], [...spaces, branded.space]), publicUrl: url }).handle);
  browser = await launchChromium();
  page = await browser.context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
});

/** The header logo shown, once loaded, and the computed colours that matter for reading. */
const shown = () =>
  page.waitForFunction(() => {
    const img = Array.from(document.querySelectorAll<HTMLImageElement>('.site-logo')).find((i) => getComputedStyle(i).display !== 'none');
    if (!img || !img.complete || !img.naturalWidth) return undefined;
    const css = getComputedStyle(document.documentElement);
    return {
      file: img.src.split('/').pop(),
      alt: img.alt,
      link: css.getPropertyValue('--link').trim(),
      bg: css.getPropertyValue('--bg').trim(),
      radius: css.getPropertyValue('--radius').trim(),
    };
  });

function contrast(a: string, b: string): number {
  const lum = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((s) => (s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

test('the site opens in its fixed dark theme, with the dark logo, readable brand colours and no theme toggle; its light colours readable too', async () => {
  await page.goto(`${url}/acme-inc/orbit/`);
  const dark = (await (await shown()).jsonValue())!;
  expect(dark).toMatchObject({ file: 'logo-dark.png', alt: 'Orbit Handbook', radius: '999px' });
  expect(contrast(dark.link, dark.bg)).toBeGreaterThanOrEqual(4.5);
  expect(await page.locator('.theme-toggle').count()).toBe(0);
  expect(await page.locator('.header-links a', { hasText: 'Status' }).getAttribute('target')).toBe('_blank');
  await page.locator('.header-menu summary').click();
  expect(await page.locator('.header-menu a', { hasText: 'Forum' }).isVisible()).toBe(true);
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: join(ARTIFACTS, 'branded-site-dark.png') });

  // A choice remembered on another site of the reader's origin does not override a site's fixed theme.
  await page.evaluate(() => localStorage.setItem('bindery-theme', 'light'));
  await page.reload();
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  // The light theme's colours, as a site space whose default is light would show them.
  await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
  const light = (await (await shown()).jsonValue())!;
  expect(light).toMatchObject({ file: 'logo-light.png' });
  expect(contrast(light.link, light.bg)).toBeGreaterThanOrEqual(4.5);
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: join(ARTIFACTS, 'branded-site-light.png') });
  await page.evaluate(() => localStorage.removeItem('bindery-theme'));
});
