import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { ApiSpecSource, CachedApiSpecs, serveSampleReader, ServedReader, showcaseSample } from '@bindery/reader/site';
import { seriousViolations } from './axe';
import { Browser, launchChromium } from './chromium';

/**
 * One customised site with everything at once (`nimbus`, libs/reader/site/src/sample-showcase-site.ts:
 * logo per theme, brand colours, header links, a footer, a hero and a full-width cover, three Petstore
 * operations), on a desktop in both themes and on a phone (390 × 844, touch) with the menu driven by
 * touch and by keyboard; axe-core on every state. Screenshots `issue32-*.png` in tmp/reader-browser.
 */
const ARTIFACTS = resolve(__dirname, '../../../tmp/reader-browser');
const PHONE = { width: 390, height: 844 };
const petstore = JSON.parse(readFileSync(resolve(__dirname, '../../../libs/reader/render/src/fixtures/openapi/petstore.json'), 'utf8'));

/** The organization's spec `acme-api`: the OpenAPI Initiative's Petstore. */
const specs: ApiSpecSource = {
  async publishedSpec(site, name) {
    if (site.organizationId !== 'org-acme' || !('slug' in name) || name.slug !== 'acme-api') return undefined;
    return { specId: 'spec-acme-api', versionId: 'v1', slug: 'acme-api', files: [{ filename: 'openapi.json', isEntrypoint: true, specification: petstore }] };
  },
};

let reader: ServedReader;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  reader = await serveSampleReader({ apiSpecs: new CachedApiSpecs(specs), more: (url) => [showcaseSample(url)] });
});
afterAll(() => reader?.close());

/** The header logo and every cover shown, once their pictures have loaded. */
const pictures = (page: Page) =>
  page.waitForFunction(() => {
    const visible = (selector: string) => Array.from(document.querySelectorAll<HTMLImageElement>(selector)).filter((i) => getComputedStyle(i).display !== 'none');
    const logo = visible('.site-logo')[0];
    const covers = visible('.page-cover img');
    if (!logo || ![logo, ...covers].every((i) => i.complete && i.naturalWidth > 0)) return undefined;
    return { logo: logo.src.split('/').pop(), covers: covers.map((i) => ({ file: i.src.split('/').pop(), height: Math.round(i.getBoundingClientRect().height) })) };
  });

describe('on a desktop', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.context.newPage();
  });
  afterAll(() => browser?.close());

  test('light and dark: the brand, the covers and the API reference, with no serious axe violation', async () => {
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      const suffix = theme === 'light' ? '' : '-dark';

      await page.goto(`${reader.url}/acme-inc/nimbus/`);
      expect(await (await pictures(page)).jsonValue()).toEqual({
        logo: `nimbus${theme === 'light' ? '-light' : '-dark'}.png`,
        covers: [{ file: `cover${suffix}.png`, height: 200 }],
      });
      expect(await page.locator('main h1').innerText()).toBe('Overview');
      expect(await page.locator('.header-links a', { hasText: 'Status' }).getAttribute('target')).toBe('_blank');
      expect(await page.locator('footer').innerText()).toContain('© 2026 Nimbus Cloud');
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, `issue32-overview-${theme}.png`), fullPage: true });

      await page.goto(`${reader.url}/acme-inc/nimbus/pets-api`);
      expect(await (await pictures(page)).jsonValue()).toEqual({ logo: expect.any(String), covers: [{ file: `cover${suffix}.png`, height: 160 }] });
      expect(await page.locator('section.api-operation').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).toEqual([
        'GET /pets',
        'POST /pets',
        'GET /pets/{petId}',
      ]);
      expect(await page.locator('section.api-operation h3').first().innerText()).toBe('List all pets');
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, `issue32-api-${theme}.png`), fullPage: true });
    }
  });
});

describe('on a phone, by touch and by keyboard', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchChromium({ viewport: PHONE, hasTouch: true, isMobile: true });
    page = await browser.context.newPage();
  });
  afterAll(() => browser?.close());

  // while the menu is open the header is inert: the button is found by its class
  const menuButton = () => page.locator('.nav-toggle');
  const nav = () => page.locator('#site-nav');
  const isFocused = (locator: ReturnType<Page['locator']>) => locator.evaluate((el) => el === document.activeElement);

  test('the menu opens and closes by tap, and by Enter and Escape with the focus back on its button; screenshots in both themes', async () => {
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await page.goto(`${reader.url}/acme-inc/nimbus/pets-api`);
      await pictures(page);
      expect(await page.evaluate(() => window.innerWidth)).toBe(PHONE.width);
      expect(await nav().isVisible()).toBe(false);
      expect(await menuButton().getAttribute('aria-expanded')).toBe('false');
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, `issue32-phone-menu-closed-${theme}.png`) });

      // by touch: a tap opens it on the current page, a tap on "Close menu" closes it
      await menuButton().tap();
      await nav().waitFor({ state: 'visible' });
      expect(await menuButton().getAttribute('aria-expanded')).toBe('true');
      const current = page.locator('#site-nav [aria-current="page"]');
      expect(await current.innerText()).toBe('Pets API');
      expect(await isFocused(current)).toBe(true);
      expect(await page.locator('main').evaluate((el) => (el as HTMLElement).inert)).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, `issue32-phone-menu-open-${theme}.png`) });
      await page.getByRole('button', { name: 'Close menu' }).tap();
      await nav().waitFor({ state: 'hidden' });
      expect(await menuButton().getAttribute('aria-expanded')).toBe('false');

      // by keyboard: Enter on the focused button opens it, Escape closes it and gives the focus back
      await menuButton().focus();
      await page.keyboard.press('Enter');
      await nav().waitFor({ state: 'visible' });
      expect(await isFocused(current)).toBe(true);
      await page.keyboard.press('Escape');
      await nav().waitFor({ state: 'hidden' });
      expect(await isFocused(menuButton())).toBe(true);
      expect(await page.locator('main').evaluate((el) => (el as HTMLElement).inert)).toBe(false);

      // a page tapped in the menu opens with the menu closed
      await menuButton().tap();
      await nav().getByRole('link', { name: 'Quickstart', exact: true }).tap();
      await page.waitForURL(/\/acme-inc\/nimbus\/quickstart$/);
      expect(await page.locator('main h1').innerText()).toBe('Quickstart');
      expect(await nav().isVisible()).toBe(false);
    }
  });
});
