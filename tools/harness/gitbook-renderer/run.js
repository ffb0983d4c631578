#!/usr/bin/env node
'use strict';
// GitBook's open-source renderer against Bindery, as an outside harness (README.md beside this
// file): starts a private Bindery with a published site, the renderer from the checkout named by
// GITBOOK_CHECKOUT with its API calls recorded, opens two pages of the site in Debian's Chromium,
// saves screenshots and writes every API call with its status to tmp/gitbook-renderer/.
const fs = require('node:fs');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { startBinderyWithSite } = require('./bindery-site');
const { startApiRecorder } = require('./api-recorder');
const { startSiteFront } = require('./site-front');
const { startRenderer } = require('./renderer');
const { requestTable } = require('./table');

const root = path.resolve(__dirname, '..', '..', '..');
const OUT = path.join(root, 'tmp', 'gitbook-renderer');
/** The origin the site's URLs are made with: the renderer refuses a site host with a port. */
const SITE_ORIGIN = process.env.HARNESS_SITE_ORIGIN || 'http://docs.harness.test';
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/** The first render compiles the renderer's pages: minutes on a small machine. */
const PAGE_TIMEOUT_MS = Number(process.env.HARNESS_PAGE_TIMEOUT_MS || 900000);

const log = (line) => console.log(`[harness] ${line}`);

async function shoot(context, front, siteUrl, pagePath, name) {
  const page = await context.newPage();
  const url = `${front.url}${new URL(siteUrl).pathname.replace(/\/$/, '')}/${pagePath}`;
  const started = Date.now();
  const answer = await page.goto(url, { waitUntil: 'load', timeout: PAGE_TIMEOUT_MS }).catch((err) => ({ status: () => `failed: ${err.message.split('\n')[0]}` }));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const title = await page.title().catch(() => '');
  const h1 = await page
    .locator('h1')
    .first()
    .innerText({ timeout: 2000 })
    .catch(() => '');
  const file = path.join(OUT, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false }).catch((err) => log(`screenshot ${name}: ${err.message}`));
  await page.close();
  const result = { page: pagePath || '/', url, status: answer?.status(), seconds, title, h1, screenshot: path.relative(root, file) };
  log(`page ${result.page}: ${result.status} in ${seconds} s, title "${title}", h1 "${h1}"`);
  return result;
}

async function main() {
  const checkout = process.env.GITBOOK_CHECKOUT;
  if (!checkout) throw new Error('set GITBOOK_CHECKOUT to a checkout of the GitbookIO/gitbook repository (see tools/harness/gitbook-renderer/README.md)');
  fs.mkdirSync(OUT, { recursive: true });
  const cleanup = [];
  try {
    const bindery = await startBinderyWithSite({ readerUrl: SITE_ORIGIN, log, cleanup });
    const journal = path.join(OUT, 'requests.jsonl');
    fs.rmSync(journal, { force: true });
    // Adaptations, each off by default (a plain run shows what stops the renderer first):
    // HARNESS_TOKEN_ADAPTER=1: the renderer gets Bindery's site tokens in a JWT-shaped wrapper.
    const adaptTokens = process.env.HARNESS_TOKEN_ADAPTER === '1';
    // HARNESS_MEMBER_FALLBACK=1: a call refused to the site token is made again as the harness user.
    const memberFallback = process.env.HARNESS_MEMBER_FALLBACK === '1';
    // HARNESS_COMPLETE_CUSTOMIZATION=1: the published site's customization gets the socialAccounts it lacks.
    const completeCustomization = process.env.HARNESS_COMPLETE_CUSTOMIZATION === '1';
    const recorder = await startApiRecorder(bindery.baseUrl, { journal, adaptTokens, memberToken: memberFallback ? bindery.token : undefined, completeCustomization });
    cleanup.push(() => recorder.close());
    // HARNESS_ANONYMOUS=1: the renderer calls the API without a token of its own, as it does against GitBook.
    const apiToken = process.env.HARNESS_ANONYMOUS === '1' ? null : bindery.token;
    const renderer = await startRenderer({
      checkout: path.resolve(checkout),
      port: Number(process.env.RENDERER_PORT || 3000),
      apiUrl: recorder.url,
      apiToken,
      log,
      cleanup,
      logFile: path.join(OUT, 'renderer.log'),
    });
    const front = await startSiteFront(renderer.url, SITE_ORIGIN);
    cleanup.push(() => front.close());

    const context = await chromium
      .launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
      })
      .then((b) => {
        cleanup.push(() => b.close());
        return b.newContext({ viewport: { width: 1280, height: 900 } });
      });
    // A first request compiles the renderer's routes; the development server has answered that one
    // with a 500 of its own module loading (`__webpack_modules__[moduleId] is not a function`) while
    // compiling. Pages are shot once it has answered.
    const warmStarted = Date.now();
    const warm = await fetch(`${front.url}${new URL(bindery.siteUrl).pathname}`, { signal: AbortSignal.timeout(PAGE_TIMEOUT_MS) }).then(
      (r) => r.status,
      (err) => `failed: ${err.message}`,
    );
    const warmUp = { status: warm, seconds: ((Date.now() - warmStarted) / 1000).toFixed(1) };
    log(`warm-up: ${warmUp.status} in ${warmUp.seconds} s`);
    const pages = [];
    pages.push(await shoot(context, front, bindery.siteUrl, '', 'site-first-page'));
    const second = bindery.pagePaths[1];
    if (second) pages.push(await shoot(context, front, bindery.siteUrl, second, 'site-second-page'));

    const report = { siteUrl: bindery.siteUrl, anonymous: !apiToken, adaptTokens, memberFallback, completeCustomization, warmUp, pages, requests: recorder.requests };
    fs.writeFileSync(path.join(OUT, 'report.json'), JSON.stringify(report, null, 2));
    const table = requestTable(recorder.requests);
    fs.writeFileSync(path.join(OUT, 'requests.md'), table);
    console.log(`\n${table}`);
    log(`written: ${path.relative(root, OUT)}/report.json, requests.md, ${pages.map((p) => path.basename(p.screenshot)).join(', ')}`);
  } finally {
    for (const undo of cleanup.reverse())
      await Promise.resolve()
        .then(undo)
        .catch((err) => log(`cleanup: ${err.message}`));
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err.stack || err.message);
    process.exit(1);
  },
);
