import { readFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { ApiSpecSource, CachedApiSpecs, serveSampleReader, ServedReader } from '@bindery/reader/site';
import { seriousViolations } from './axe';
import { Browser, launchChromium } from './chromium';

/** An API reference in a browser: the sample rich page's operation from the Petstore spec, with axe in both themes. */
const ARTIFACTS = resolve(__dirname, '../../../tmp/reader-browser');
const petstore = JSON.parse(readFileSync(resolve(__dirname, '../../../libs/reader/render/src/fixtures/openapi/petstore.json'), 'utf8'));

/** The sample organization's spec `acme-api`: the OpenAPI Initiative's Petstore. */
const specs: ApiSpecSource = {
  async publishedSpec(site, name) {
    if (site.organizationId !== 'org-acme' || !('slug' in name) || name.slug !== 'acme-api') return undefined;
    return { specId: 'spec-acme-api', versionId: 'v1', slug: 'acme-api', files: [{ filename: 'openapi.json', isEntrypoint: true, specification: petstore }] };
  },
};

let reader: ServedReader;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  reader = await serveSampleReader({ apiSpecs: new CachedApiSpecs(specs) });
  browser = await launchChromium();
  page = await browser.context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await reader?.close();
});

test('the operation: its heading, a parameters table with headers, responses, curl with a Copy button; no serious axe violation in either theme', async () => {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto(`${reader.url}/acme-inc/acme/rich`);
    const op = page.locator('section.api-operation');
    await op.scrollIntoViewIfNeeded();
    expect(await op.getAttribute('aria-label')).toBe('GET /pets');
    expect(await op.locator('h3').textContent()).toBe('List all pets');
    expect(await op.locator('table th').allTextContents()).toEqual(['Name', 'In', 'Type', 'Required', 'Description']);
    expect(await op.locator('.api-status code').allTextContents()).toEqual(['200', 'default']);
    expect(await op.locator('figure.code-block button.copy-code').count()).toBe(2);
    expect(await op.locator('figure.code-block pre').first().textContent()).toBe("curl -X GET 'http://petstore.swagger.io/v1/pets'");
    expect(await seriousViolations(page)).toEqual([]);
    await op.screenshot({ path: join(ARTIFACTS, `api-reference-${theme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
});
