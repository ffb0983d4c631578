'use strict';
// A private Bindery for the renderer (the end-to-end tests' launcher, on fresh ports, databases and a
// Kafka namespace of its own on the shared infrastructure) and one published site made through the
// REST API as a user would: a space whose pages are real GitBook Markdown from the corpus, merged
// through a change request, a site showing it, published.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { ensureInfra } = require('../../stack/stack');
const { buildApps } = require('../../build/build-apps');
const { bundle } = require('../../bench/bundled');

const root = path.resolve(__dirname, '..', '..', '..');
const CORPUS = path.join(root, 'libs/shared/markdown/src/corpus');
/** Pages of the site, in order: a landing page, then blocks the renderer has components for. */
const PAGES = ['01-getting-started.md', '02-concepts.md', '06-quickstart-steps.md', '09-troubleshooting.md', '15-cards.md'];

function client(baseUrl, token) {
  return async (method, route, body, expected = [200, 201, 204]) => {
    const res = await fetch(baseUrl + route, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!expected.includes(res.status)) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : undefined;
  };
}

async function until(what, probe, timeoutMs = 60000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await probe();
    } catch (err) {
      if (Date.now() > end) throw new Error(`${what}: ${err.message}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/**
 * Starts Bindery with `readerUrl` as the reader's public URL (the origin the site's URLs are made
 * with: the renderer refuses site URLs whose host carries a port, so it is a portless name) and
 * publishes the site. Each undo step is pushed onto `cleanup`.
 */
async function startBinderyWithSite({ readerUrl, log, cleanup }) {
  const infra = await ensureInfra(log);
  await buildApps();
  const { startSystem } = require(await bundle(path.join(root, 'tools/bench/system.ts'), 'system'));
  // The launcher names databases `e2e_<run>_<service>_…` and its pid folder after this run.
  const run = `harness${randomBytes(4).toString('hex')}`;
  Object.assign(process.env, { BINDERY_TEST_MONGODB_URL: infra.mongoUrl, BINDERY_TEST_KAFKA_BROKERS: infra.kafkaBrokers, BINDERY_TEST_RUN: run });
  cleanup.push(() => fs.rmSync(path.join(os.tmpdir(), `bindery-test-${run}`), { recursive: true, force: true }));
  const sut = await startSystem({ LOG_LEVEL: 'warn', BINDERY_READER_URL: readerUrl }, { appDefaults: true, split: false });
  cleanup.push(() => sut.stop());
  log(`bindery: gateway ${sut.baseUrl}, databases e2e_${run}_*`);
  await until('gateway ready', async () => {
    const res = await fetch(`${sut.baseUrl}/readyz`);
    if (!res.ok) throw new Error(`readyz ${res.status}`);
  });

  const admin = client(sut.baseUrl, sut.adminToken);
  const user = await admin('POST', '/admin/users', { email: `${run}@example.com`, displayName: 'Renderer harness' });
  const { token } = await admin('POST', `/admin/users/${user.id}/tokens`, { label: 'renderer' });
  const call = client(sut.baseUrl, token);
  const org = await call('POST', '/v1/orgs', { title: 'Lumen' });
  const space = await until('creating a space', () => call('POST', `/v1/orgs/${org.id}/spaces`, { title: 'Lumen docs' }));
  const cr = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Pages' });
  const changes = PAGES.map((file) => ({ operation: 'insert_page', document: { markdown: fs.readFileSync(path.join(CORPUS, file), 'utf8') } }));
  await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, { changes });
  await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
  const site = await until('creating the site', () => call('POST', `/v1/orgs/${org.id}/sites`, { title: 'Lumen', spaces: [space.id] }));
  const published = await call('POST', `/v1/orgs/${org.id}/sites/${site.id}/publish`);
  const siteUrl = published.urls.published;
  // The resolver reads the space's revision through content: wait until the site resolves.
  await until('the site resolving', () => call('POST', '/v1/urls/published', { url: siteUrl }, [200]));
  const pages = await call('GET', `/v1/spaces/${space.id}/content`, undefined, [200]);
  log(`bindery: site ${siteUrl} (${pages.pages.length} pages)`);
  return { baseUrl: sut.baseUrl, token, organizationId: org.id, spaceId: space.id, siteId: site.id, siteUrl, pagePaths: pages.pages.map((p) => p.path) };
}

module.exports = { startBinderyWithSite };
