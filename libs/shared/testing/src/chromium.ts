import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';

/** Debian's chromium package (never a browser download): `apt-get install -y chromium`, as .ci/run does. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * Flags that keep Chromium from reaching out (this network is closed: without them it stalls on
 * updates, sync and QUIC) and let it run as root in a container.
 */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A device to emulate: a phone's viewport, touch events (`tap()`), its meta viewport honoured. */
export interface Device {
  viewport: { width: number; height: number };
  hasTouch?: boolean;
  isMobile?: boolean;
}

/** Headless Chromium with a fresh profile; CSP bypassed so axe-core can be injected into the page. */

export async function launchChromium(device?: Device): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}. Install Debian's package: sudo apt-get install -y chromium (or set CHROMIUM_PATH).`);
  }
  // Loaded here, not with this library: only browser tests need it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { chromium } = require('playwright-core') as typeof import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'bindery-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    bypassCSP: true,
    viewport: { width: 1280, height: 900 },
    ...device,
    colorScheme: 'light',
    timeout: 60000,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
