import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { serveSampleReader, ServedReader } from '@bindery/reader/site';
import { seriousViolations } from './axe';
import { Browser, launchChromium } from './chromium';

/**
 * The reader on a phone (390 × 844 CSS pixels, touch): the page comes before the page tree, the tree
 * opens from a menu button as a layer that keeps focus inside until Escape or the close button, the
 * outline is a disclosure, touch targets are at least 44 × 44, nothing shifts while the page loads, and
 * axe-core finds nothing serious with the menu open or closed. Screenshots go to tmp/reader-browser.
 */
const ARTIFACTS = resolve(__dirname, '../../../tmp/reader-browser');
const PHONE = { width: 390, height: 844 };

let reader: ServedReader;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  reader = await serveSampleReader();
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.setViewportSize(PHONE);
  // the layout shifts of each page, summed as Lighthouse's CLS does (shifts right after an input do not count)
  await page.addInitScript(() => {
    const w = window as unknown as { layoutShift: number };
    w.layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
        if (!entry.hadRecentInput) w.layoutShift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
});
afterAll(async () => {
  await browser?.close();
  await reader?.close();
});

// the menu button by class: while the menu is open the header is inert, so it has no role to find it by
const menuButton = () => page.locator('.nav-toggle');
const pagesNav = () => page.locator('#site-nav');
const focusedInsideNav = () => page.evaluate(() => !!document.activeElement && !!document.getElementById('site-nav')?.contains(document.activeElement));
const top = (selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => el.getBoundingClientRect().top + window.scrollY);

test('the page comes first; the menu opens over it, keeps focus inside, shows the current page, and Escape closes it', async () => {
  await page.goto(`${reader.url}/acme-inc/acme/install/docker`);
  // the first line of the page is on the first screen, the page tree is behind the menu button
  expect(await top('main h1')).toBeLessThan(PHONE.height / 2);
  expect(await pagesNav().isVisible()).toBe(false);
  expect(await page.getByRole('button', { name: 'Menu', exact: true }).getAttribute('aria-expanded')).toBe('false');
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: join(ARTIFACTS, 'phone-menu-closed-light.png') });

  await menuButton().click();
  expect(await pagesNav().isVisible()).toBe(true);
  expect(await menuButton().getAttribute('aria-expanded')).toBe('true');
  // the current page is shown and has the focus
  const current = page.locator('#site-nav > ul [aria-current="page"]');
  expect(await current.innerText()).toBe('With Docker');
  expect(await current.evaluate((el) => el === document.activeElement)).toBe(true);
  expect(await current.isVisible()).toBe(true);
  // the layer covers the whole screen
  expect(await pagesNav().evaluate((el) => el.getBoundingClientRect().height)).toBe(PHONE.height);
  // Tab and Shift+Tab never leave the menu
  for (let i = 0; i < 30; i += 1) {
    await page.keyboard.press('Tab');
    expect(await focusedInsideNav()).toBe(true);
  }
  for (let i = 0; i < 5; i += 1) {
    await page.keyboard.press('Shift+Tab');
    expect(await focusedInsideNav()).toBe(true);
  }
  // the rest of the page is out of reach while the menu is open
  expect(await page.locator('main').evaluate((el) => (el as HTMLElement).inert)).toBe(true);
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: join(ARTIFACTS, 'phone-menu-open-light.png') });

  await page.keyboard.press('Escape');
  expect(await pagesNav().isVisible()).toBe(false);
  expect(await menuButton().getAttribute('aria-expanded')).toBe('false');
  expect(await menuButton().evaluate((el) => el === document.activeElement)).toBe(true);
  expect(await page.locator('main').evaluate((el) => (el as HTMLElement).inert)).toBe(false);

  // the close button closes it too, and a page chosen in the menu opens with the menu closed
  await menuButton().click();
  await page.getByRole('button', { name: 'Close menu' }).click();
  expect(await pagesNav().isVisible()).toBe(false);
  await menuButton().click();
  await pagesNav().getByRole('link', { name: 'Install', exact: true }).click();
  await page.waitForURL(/\/acme-inc\/acme\/install$/);
  expect(await page.locator('main h1').innerText()).toBe('Install');
  expect(await pagesNav().isVisible()).toBe(false);
});

test('nothing shifts while a page loads, in light and dark', async () => {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    for (const path of ['/acme-inc/acme/', '/acme-inc/acme/rich', '/acme-inc/acme/install/docker']) {
      await page.goto(`${reader.url}${path}`, { waitUntil: 'load' });
      // two frames after load, so that a shift from a late style or script would have been recorded
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      expect([path, theme, await page.evaluate(() => (window as unknown as { layoutShift: number }).layoutShift)]).toEqual([path, theme, 0]);
    }
  }
  await page.goto(`${reader.url}/acme-inc/acme/install/docker`);
  await page.screenshot({ path: join(ARTIFACTS, 'phone-menu-closed-dark.png') });
  await menuButton().click();
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: join(ARTIFACTS, 'phone-menu-open-dark.png') });
  await page.keyboard.press('Escape');
  await page.emulateMedia({ colorScheme: 'light' });
});

test('touch targets are at least 44 × 44 CSS pixels', async () => {
  await page.goto(`${reader.url}/acme-inc/acme/rich`);
  await menuButton().click();
  const small = async () =>
    page.evaluate(() => {
      const targets = document.querySelectorAll(
        '.site-header a, .site-header button, .site-header input, .site-header summary, #site-nav a, #site-nav button, #site-nav summary, .toc-inline summary, .breadcrumbs a, .pagination a',
      );
      return Array.from(targets)
        .filter((el) => el.getClientRects().length > 0)
        .map((el) => ({ el, box: el.getBoundingClientRect() }))
        .filter(({ box }) => box.height < 44 || box.width < 44)
        .map(({ el, box }) => `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}" ${Math.round(box.width)}×${Math.round(box.height)}`);
    });
  expect(await small()).toEqual([]);
  await page.keyboard.press('Escape');
  // the header's own controls, with the menu closed
  expect(await small()).toEqual([]);
});

test('the outline is a disclosure above the page, and choosing a heading closes it', async () => {
  await page.goto(`${reader.url}/acme-inc/acme/rich`);
  expect(await page.locator('.toc').isVisible()).toBe(false);
  const outline = page.locator('details.toc-inline');
  expect(await outline.isVisible()).toBe(true);
  expect(await outline.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);
  await outline.locator('summary').click();
  const first = outline.getByRole('link').first();
  const target = await first.getAttribute('href');
  await first.click();
  expect(new URL(page.url()).hash).toBe(target);
  expect(await outline.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);
  // on a wide screen the outline is beside the page again
  await page.setViewportSize({ width: 1280, height: 900 });
  expect([await page.locator('.toc').isVisible(), await outline.isVisible(), await menuButton().isVisible()]).toEqual([true, false, false]);
  await page.setViewportSize(PHONE);
});

test('without scripts the page tree follows the page', async () => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setScriptExecutionDisabled', { value: true });
  try {
    await page.goto(`${reader.url}/acme-inc/acme/install`);
    expect(await page.evaluate(() => document.documentElement.className)).toBe('no-js');
    expect(await menuButton().isVisible()).toBe(false);
    expect(await pagesNav().isVisible()).toBe(true);
    expect(await top('#site-nav')).toBeGreaterThan(await top('main h1'));
  } finally {
    await cdp.send('Emulation.setScriptExecutionDisabled', { value: false });
    await cdp.detach();
  }
});
