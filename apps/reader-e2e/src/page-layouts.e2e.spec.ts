import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { serveSampleReader, ServedReader } from '@bindery/reader/site';
import { seriousViolations } from './axe';
import { Browser, launchChromium } from './chromium';

/** Page layouts in a browser: covers per theme, a wide page without page tree. Screenshots in tmp/reader-browser. */
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

/** The cover picture shown, once loaded: its file name and its box. */
const shownCover = () =>
  page.waitForFunction(() => {
    const img = Array.from(document.querySelectorAll<HTMLImageElement>('.page-cover img')).find((i) => getComputedStyle(i).display !== 'none');
    if (!img || !img.complete || !img.naturalWidth) return undefined;
    const box = img.getBoundingClientRect();
    return { file: img.src.split('/').pop(), width: Math.round(box.width), height: Math.round(box.height) };
  });

test('a hero cover follows the theme', async () => {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto(`${reader.url}/acme-inc/acme/`);
    const cover = await (await shownCover()).jsonValue();
    expect(cover).toEqual({ file: theme === 'light' ? 'cover.png' : 'cover-dark.png', width: expect.any(Number), height: 180 });
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, `cover-hero-${theme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
});

test('a wide page: a full-width cover, no page tree, the content wider than a default page', async () => {
  await page.goto(`${reader.url}/acme-inc/acme/configure`);
  const defaultWidth = await page.locator('main').evaluate((el) => el.getBoundingClientRect().width);
  await page.goto(`${reader.url}/acme-inc/acme/wide`);
  const cover = await (await shownCover()).jsonValue();
  expect(cover).toEqual({ file: 'cover.png', width: 1280, height: 240 });
  expect(await page.locator('#site-nav').count()).toBe(0);
  expect(await page.locator('main').evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThan(defaultWidth * 1.5);
  expect(await page.locator('details.toc-inline').isVisible()).toBe(true);
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: join(ARTIFACTS, 'wide-page-light.png') });
});
