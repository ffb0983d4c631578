'use strict';
// Starts GitBook's open-source renderer (packages/gitbook of a checkout of the GitbookIO/gitbook
// repository the user points to with GITBOOK_CHECKOUT) in Next's development server, reading its
// content from `apiUrl`. Nothing of that repository is copied here: it runs from its own folder.
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');

/** What the checkout must hold before the renderer can start (see README.md, "Preparing the checkout"). */
function checkCheckout(checkout) {
  const app = path.join(checkout, 'packages', 'gitbook');
  const missing = [
    [path.join(app, 'package.json'), 'packages/gitbook (is GITBOOK_CHECKOUT a checkout of GitbookIO/gitbook?)'],
    [path.join(checkout, 'node_modules', 'next', 'package.json'), 'node_modules (run bun install)'],
    [path.join(checkout, 'packages', 'icons', 'dist', 'index.js'), "the workspace packages' dist (run turbo run build --filter='gitbook^...')"],
  ].filter(([file]) => !fs.existsSync(file));
  if (missing.length) throw new Error(`${checkout} is not ready: missing ${missing.map(([, what]) => what).join('; ')}`);
  return app;
}

/**
 * `next dev --webpack` (as the repository's own dev script, without its asset generation, which
 * downloads fonts from Google) on `port`. In development the renderer names its own origin
 * `http://localhost:3000` for assets, so another port serves pages whose icons and fonts miss.
 */
async function startRenderer({ checkout, port, apiUrl, apiToken, log, cleanup, logFile }) {
  const app = checkCheckout(checkout);
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'development',
    NEXT_TELEMETRY_DISABLED: '1',
    GITBOOK_API_URL: apiUrl,
    GITBOOK_DISABLE_TRACKING: '1',
    ...(apiToken ? { GITBOOK_API_TOKEN: apiToken } : {}),
  };
  const out = fs.openSync(logFile, 'w');
  const child = spawn(
    process.execPath,
    [path.join(checkout, 'node_modules', 'next', 'dist', 'bin', 'next'), 'dev', '--webpack', '--port', String(port), '--hostname', 'localhost'],
    {
      cwd: app,
      env,
      stdio: ['ignore', out, out],
      detached: true,
    },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  cleanup.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      // Next's dev server starts workers of its own: stop the whole group it leads.
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }, 5000);
      await exited;
      clearTimeout(timer);
    }
  });
  // The middleware rewrites each page to an internal route at `localhost:<port>`; on another host name
  // Next takes that rewrite for an outside address and proxies it back to itself, endlessly.
  const url = `http://localhost:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the renderer exited (${child.exitCode}); see ${logFile}`);
    const answered = await fetch(`${url}/~gitbook/static/none`, { signal: AbortSignal.timeout(5000) }).then(
      () => true,
      () => false,
    );
    if (answered) break;
    if (Date.now() - started > 300000) throw new Error(`the renderer did not listen on ${port} within 5 min; see ${logFile}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  log(`renderer: listening on ${url} after ${((Date.now() - started) / 1000).toFixed(1)} s (log: ${logFile})`);
  return { url };
}

module.exports = { startRenderer };
