// The reader's speed, in one run (issues 22 and 32):
// (a) a customised page — the sample site `nimbus` (libs/reader/site/src/sample-showcase-site.ts: logo
//     per theme, brand colours, header links and a menu, a footer, a full-width cover and three
//     operations of the Petstore spec) — served by the reader from its cache, against a static file
//     server (node:http serving the same HTML from disk): goal ≥ 0.5× its req/s;
// (b) cold renders: a page with OpenAPI blocks (the three Petstore operations and a webhook of GitHub's
//     webhooks description), each round a new revision of the page and a new version of both specs (the
//     reader's event for a processed version drops what it knew), so nothing of it is cached — goal
//     p50 ≤ 25 ms; and a 100-block page of the usual mix;
// (c) MCP search: the SDK's client calling `searchDocumentation` on `<site>/~gitbook/mcp` of a
//     1,000-page site, beside the same search through `~search.json` and the source's search alone;
// and the delay until a merge shows (bounded by the resolution TTL, 1 s by default).
// The reader reads sites, specs and search from memory (FixtureSource, an ApiSpecSource of the two
// specs): what is measured is the reader itself. Through gRPC a resolution costs one call per
// READER_RESOLVE_TTL_MS, a spec's files one read per version, a search sites' SearchSite (bench:search).
// The two servers of (a) run in a child process; autocannon and the rest run here.
// Settings: BENCH_DURATION (10), BENCH_WARMUP (2), BENCH_CONNECTIONS (20), BENCH_PAIRS (3), BENCH_ROUNDS (200).
import { fork } from 'node:child_process';
import { mkdtempSync, readFile, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ApiSpecSource, CachedApiSpecs, petsApiDocument, serveSampleReader, showcaseSample } from '@bindery/reader/site';
import type { DocumentBlock } from '@bindery/reader/render';
import { hundredBlocks, block, text, thousandPageSite } from './pages';

const ROUNDS = Number(process.env.BENCH_ROUNDS || 200);
const PAIRS = Number(process.env.BENCH_PAIRS || 3);
const PAGE = '/acme-inc/nimbus/pets-api';
const log = (msg: string) => console.log(`[bench:reader] ${msg}`);

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { measure, settings } = require('../measure') as {
  measure(
    target: { url: string; pids?: Record<string, number> },
    s: object,
  ): Promise<{
    requestsPerSec: number;
    latencyP50Ms: number;
    latencyP99Ms: number;
    non2xx: number;
    errors: number;
    cpuMsPerRequest: Record<string, number>;
    otherCpuShare: number;
  }>;
  settings(): object;
};
type Measured = Awaited<ReturnType<typeof measure>>;

/**
 * The specs: `acme-api` is the OpenAPI Initiative's Petstore (OAI/OpenAPI-Specification,
 * examples/v3.0/petstore.json, Apache-2.0; libs/reader/render/src/fixtures/openapi); `github-webhooks`
 * GitHub's webhooks description (@octokit/openapi-webhooks 12.1.0, generated/api.github.com.json,
 * OpenAPI 3.1, MIT; 261 webhooks, 433 schemas). Each is answered at the version `version()` names.
 */
function specSource(version: () => string): ApiSpecSource {
  const read = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
  const files: Record<string, unknown> = {
    'acme-api': read('libs/reader/render/src/fixtures/openapi/petstore.json'),
    'github-webhooks': read('node_modules/@octokit/openapi-webhooks/generated/api.github.com.json'),
  };
  return {
    async publishedSpec(site, name, known) {
      const slug = 'slug' in name ? name.slug : '';
      if (site.organizationId !== 'org-acme' || !files[slug]) return undefined;
      const versionId = version();
      const answer = { specId: `spec-${slug}`, versionId, slug };
      return known === versionId ? answer : { ...answer, files: [{ filename: 'openapi.json', isEntrypoint: true, specification: files[slug] as Record<string, unknown> }] };
    },
  };
}

/** The child: the reader over the sample sites and `nimbus`, and a static server of the page's HTML. */
async function serve(): Promise<void> {
  const reader = await serveSampleReader({
    cache: { resolveTtlMs: 60_000 },
    apiSpecs: new CachedApiSpecs(
      specSource(() => 'v1'),
      { ttlMs: 60_000 },
    ),
    more: (url) => [showcaseSample(url)],
  });
  const html = await (await fetch(`${reader.url}${PAGE}`)).text();
  for (const part of ['Nimbus Docs', 'page-cover', 'site-footer', 'header-links', 'api-operation']) if (!html.includes(part)) throw new Error(`the customised page lacks ${part}`);
  const file = join(mkdtempSync(join(tmpdir(), 'bindery-bench-reader-')), 'page.html');
  writeFileSync(file, html);
  const statics = createServer((req, res) =>
    readFile(file, (err, body) => {
      if (err) {
        res.writeHead(500).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': String(body.length) });
      res.end(body);
    }),
  );
  await new Promise<void>((resolve) => statics.listen(0, '127.0.0.1', resolve));
  process.send?.({ reader: `${reader.url}${PAGE}`, static: `http://127.0.0.1:${(statics.address() as AddressInfo).port}/page.html`, bytes: html.length });
  process.on('disconnect', () => process.exit(0));
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
/**
 * Wall time and this process's CPU time (the reader and its client both run here): on a machine shared
 * with other work the CPU time is the work done, the wall time adds the waits for a core.
 */
type Took = { wall: number; cpu: number };
const clock = () => ({ wall: performance.now(), cpu: process.cpuUsage() });
function since(start: ReturnType<typeof clock>): Took {
  const used = process.cpuUsage(start.cpu);
  return { wall: performance.now() - start.wall, cpu: (used.user + used.system) / 1000 };
}
const summary = (xs: Took[]) => ({
  p50: quantile(
    xs.map((x) => x.wall),
    0.5,
  ),
  p99: quantile(
    xs.map((x) => x.wall),
    0.99,
  ),
  cpuP50: quantile(
    xs.map((x) => x.cpu),
    0.5,
  ),
});
type Timing = ReturnType<typeof summary>;
const ms = (t: Timing) => `p50 ${t.p50.toFixed(1)} ms, p99 ${t.p99.toFixed(1)} ms (CPU p50 ${t.cpuP50.toFixed(1)} ms)`;

/** A webhook of GitHub's description: its payload is a pull request with its repository, users and labels. */
const WEBHOOK: DocumentBlock = block('openapi-webhook', { ref: { kind: 'openapi', spec: 'github-webhooks' }, name: 'pull-request-opened', method: 'post' }, undefined, true);

/**
 * Cold renders of the `nimbus` API page: a new revision each round (a merge, or a page out of the
 * render cache) and, with `newSpecs`, new versions of both specs too (nothing of the blocks is known).
 */
async function coldApiRenders(newSpecs: boolean): Promise<Timing & { bytes: number }> {
  let version = 'v0';
  const apiSpecs = new CachedApiSpecs(
    specSource(() => version),
    { ttlMs: 60_000 },
  );
  const r = await serveSampleReader({ cache: { resolveTtlMs: 0 }, apiSpecs, more: (url) => [showcaseSample(url)] });
  try {
    const space = r.fixture.spaces.find((s) => s.id === 'space-nimbus')!;
    const times: Took[] = [];
    let bytes = 0;
    for (let round = 0; round < ROUNDS + 10; round++) {
      const doc = petsApiDocument();
      r.fixture.publishRevision({
        ...space,
        revisionId: `rev-bench-${round}`,
        documents: { ...space.documents, 'n-pets-api': { ...doc, nodes: [block('paragraph', {}, [text(`Round ${round}.`)]), ...doc.nodes, WEBHOOK] } },
      });
      if (newSpecs || round === 0) {
        // what specs' event of a processed version does
        version = `v${round + 1}`;
        apiSpecs.invalidateSpec('org-acme', 'acme-api');
        apiSpecs.invalidateSpec('org-acme', 'github-webhooks');
      }
      const t0 = clock();
      const res = await fetch(`${r.url}${PAGE}`);
      const body = await res.text();
      const took = since(t0);
      if (res.status !== 200 || !body.includes(`Round ${round}.`)) throw new Error(`cold render ${round}: ${res.status}`);
      if ((body.match(/<section class="api-operation/g) ?? []).length !== 4) throw new Error(`cold render ${round}: the four API blocks are not all rendered`);
      bytes = body.length;
      if (round >= 10) times.push(took);
    }
    return { ...summary(times), bytes };
  } finally {
    await r.close();
  }
}

/** Cold renders of a 100-block page of the usual mix (a new revision each round). */
async function coldRenders(): Promise<Timing & { bytes: number }> {
  const r = await serveSampleReader({ cache: { resolveTtlMs: 0 } });
  try {
    const space = r.fixture.spaces.find((s) => s.id === 'space-guides-v2')!;
    const times: Took[] = [];
    let bytes = 0;
    for (let round = 0; round < ROUNDS + 10; round++) {
      r.fixture.publishRevision({
        ...space,
        revisionId: `rev-bench-${round}`,
        documents: { ...space.documents, 'p-configure': { object: 'document', data: {}, nodes: hundredBlocks(round) } },
      });
      const t0 = clock();
      const res = await fetch(`${r.url}/acme-inc/acme/configure`);
      const body = await res.text();
      const took = since(t0);
      if (res.status !== 200 || !body.includes(`round ${round}`)) throw new Error(`cold render ${round}: ${res.status}`);
      bytes = body.length;
      if (round >= 10) times.push(took);
    }
    return { ...summary(times), bytes };
  } finally {
    await r.close();
  }
}

/** Searches of a 1,000-page site: through MCP (the SDK's client), through `~search.json`, and the source's alone. */
async function mcpSearch(): Promise<{ mcp: Timing; http: Timing; source: Timing; hits: number; pages: number }> {
  const site = thousandPageSite();
  const r = await serveSampleReader({ cache: { resolveTtlMs: 60_000 }, reader: { mcpRateLimit: { burst: 1_000_000, perMinute: 1_000_000 } }, more: () => [site] });
  const client = new Client({ name: 'bench-reader', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${r.url}/acme-inc/thousand/~gitbook/mcp`)));
    const queries = site.queries;
    const mcp: Took[] = [];
    const http: Took[] = [];
    const source: Took[] = [];
    let hits = 0;
    const content = (await r.fixture.resolve(`${r.url}/acme-inc/thousand/`, {}))!;
    for (let round = 0; round < ROUNDS + 10; round++) {
      const query = queries[round % queries.length];
      let t0 = clock();
      const result = (await client.callTool({ name: 'searchDocumentation', arguments: { query } })) as { content: Array<{ text: string }>; isError?: boolean };
      const tookMcp = since(t0);
      const found = result.content.map((c) => c.text).join('\n');
      if (result.isError || !found.includes('## ')) throw new Error(`MCP search ${round} (${query}): ${found.slice(0, 200)}`);
      hits += (found.match(/^## /gm) ?? []).length;
      t0 = clock();
      const res = await fetch(`${r.url}/acme-inc/thousand/~search.json?q=${encodeURIComponent(query)}`);
      await res.text();
      const tookHttp = since(t0);
      if (res.status !== 200) throw new Error(`~search.json ${round}: ${res.status}`);
      t0 = clock();
      await r.fixture.search(content, query, {});
      const tookSource = since(t0);
      if (round >= 10) {
        mcp.push(tookMcp);
        http.push(tookHttp);
        source.push(tookSource);
      }
    }
    return { mcp: summary(mcp), http: summary(http), source: summary(source), hits: hits / (ROUNDS + 10), pages: site.pages };
  } finally {
    await client.close();
    await r.close();
  }
}

async function freshness(): Promise<number> {
  const r = await serveSampleReader({ cache: { resolveTtlMs: 1000 } });
  try {
    await fetch(`${r.url}/acme-inc/acme/blog/`);
    const space = r.fixture.spaces.find((s) => s.id === 'space-blog')!;
    const t0 = performance.now();
    r.fixture.publishRevision({
      ...space,
      revisionId: 'rev-merged',
      documents: { 'blog-hello': { object: 'document', data: {}, nodes: [block('paragraph', {}, [text('Merged.')])] } },
    });
    for (;;) {
      if ((await (await fetch(`${r.url}/acme-inc/acme/blog/`)).text()).includes('Merged.')) return performance.now() - t0;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    await r.close();
  }
}

async function main(): Promise<void> {
  const child = fork(__filename, ['serve'], { stdio: 'inherit' });
  const urls = await new Promise<{ reader: string; static: string; bytes: number }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as never));
    child.once('exit', (code) => reject(new Error(`the servers exited (${code})`)));
  });
  try {
    const s = settings();
    log(`page ${PAGE}: ${urls.bytes} bytes of HTML`);
    // Turn about, PAIRS times: the machine's other work changes from one window to the next, so each
    // pair's ratio compares windows next to each other, and the median pair is shown.
    const pairs: Array<{ statics: Measured; reader: Measured; ratio: number }> = [];
    for (let i = 0; i < PAIRS; i++) {
      const statics = await measure({ url: urls.static, pids: { server: child.pid! } }, s);
      const reader = await measure({ url: urls.reader, pids: { server: child.pid! } }, s);
      for (const m of [statics, reader]) if (m.non2xx || m.errors) throw new Error(`failed requests: ${JSON.stringify(m)}`);
      pairs.push({ statics, reader, ratio: reader.requestsPerSec / statics.requestsPerSec });
    }
    child.kill();
    const { statics, reader } = [...pairs].sort((a, b) => a.ratio - b.ratio)[Math.floor((pairs.length - 1) / 2)];
    const coldApi = await coldApiRenders(false);
    const coldApiSpecs = await coldApiRenders(true);
    const cold = await coldRenders();
    const search = await mcpSearch();
    const fresh = await freshness();
    const row = (name: string, m: { requestsPerSec: number; latencyP50Ms: number; latencyP99Ms: number }) =>
      `${name.padEnd(44)} ${String(Math.round(m.requestsPerSec)).padStart(8)} ${String(m.latencyP50Ms).padStart(8)} ${String(m.latencyP99Ms).padStart(8)}`;
    console.log(`\n${'served'.padEnd(44)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}`);
    console.log(row('static file server, same HTML', statics));
    console.log(row('reader, customised page (cached)', reader));
    console.log(
      `(a) customised page / static server: ${(reader.requestsPerSec / statics.requestsPerSec).toFixed(2)}× (goal ≥ 0.5×; ${urls.bytes} bytes; the median of ${PAIRS} pairs: ${pairs.map((p) => p.ratio.toFixed(2)).join(', ')})`,
    );
    // the servers' CPU per request: the work each answer costs, whatever else the machine runs
    const cpu = (m: Measured) => m.cpuMsPerRequest.server;
    console.log(
      `    server CPU ms per request: static ${cpu(statics)}, reader ${cpu(reader)} (by CPU ${(cpu(statics) / cpu(reader)).toFixed(2)}×); other work on the machine ${Math.round(100 * Math.max(statics.otherCpuShare, reader.otherCpuShare))} % of its CPU`,
    );
    console.log(`(b) cold render of a page with OpenAPI blocks: ${ms(coldApi)} over ${ROUNDS} rounds, ${coldApi.bytes} bytes (goal p50 ≤ 25 ms)`);
    console.log(`    the same with new versions of its specs each round: ${ms(coldApiSpecs)}`);
    console.log(`    cold render of a 100-block page: ${ms(cold)} over ${ROUNDS} rounds, ${cold.bytes} bytes`);
    console.log(
      `(c) MCP searchDocumentation on a ${search.pages}-page site: ${ms(search.mcp)}; ~search.json ${ms(search.http)}; the source's search alone ${ms(search.source)} (${search.hits.toFixed(1)} hits a query)`,
    );
    console.log(`freshness: a merge showed after ${Math.round(fresh)} ms (resolution TTL 1000 ms)`);
  } finally {
    child.kill();
  }
}

if (process.argv[2] === 'serve') serve().catch((err) => (console.error(err), process.exit(1)));
else
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err instanceof Error ? err.stack : err);
      process.exit(1);
    },
  );
