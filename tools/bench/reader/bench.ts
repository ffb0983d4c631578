// The reader's speed, in one run (issue 22): (a) a cached page of the reader against (b) a static
// file server (node:http serving the same HTML from disk) — goal ≥ 0.5× its req/s; a cold render of
// a 100-block page (the render cache and the revision's documents new each round) — goal p50 ≤ 25 ms;
// and the delay until a merge shows (bounded by the resolution TTL, 1 s by default). The reader reads
// the sample sites in memory (libs/reader/site): what is measured is the reader itself; a gRPC
// resolution costs one call per READER_RESOLVE_TTL_MS on top.
// Both servers run in a child process; autocannon and the cold renders run here.
// Settings: BENCH_DURATION (10), BENCH_WARMUP (2), BENCH_CONNECTIONS (20), BENCH_ROUNDS (200).
import { fork } from 'node:child_process';
import { mkdtempSync, readFile, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { serveSampleReader } from '@bindery/reader/site';
import type { DocumentBlock, DocumentNode } from '@bindery/reader/render';

const ROUNDS = Number(process.env.BENCH_ROUNDS || 200);
const PAGE = '/acme-inc/acme/rich';
const log = (msg: string) => console.log(`[bench:reader] ${msg}`);

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { measure, settings } = require('../measure') as {
  measure(
    target: { url: string; pids?: Record<string, number> },
    s: object,
  ): Promise<{ requestsPerSec: number; latencyP50Ms: number; latencyP99Ms: number; non2xx: number; errors: number }>;
  settings(): object;
};

/** The child: the reader over the sample sites and a static server of the same page's HTML. */
async function serve(): Promise<void> {
  const reader = await serveSampleReader({ cache: { resolveTtlMs: 60_000 } });
  const html = await (await fetch(`${reader.url}${PAGE}`)).text();
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

const text = (s: string): DocumentNode => ({ object: 'text', leaves: [{ object: 'leaf', text: s, marks: [] }] });
const block = (type: string, data: Record<string, unknown>, nodes?: DocumentNode[]): DocumentBlock => ({ object: 'block', type, data, ...(nodes ? { nodes } : {}) });

/** 100 top-level blocks of the usual mix: paragraphs, headings, lists, hints, code, tables of text. */
function hundredBlocks(round: number): DocumentBlock[] {
  const out: DocumentBlock[] = [];
  for (let i = 0; out.length < 100; i++) {
    const kind = i % 10;
    if (kind === 0) out.push(block('heading-1', {}, [text(`Section ${i} of round ${round}`)]));
    else if (kind === 5) out.push(block('heading-2', {}, [text(`Part ${i}`)]));
    else if (kind === 3)
      out.push(
        block(
          'list-unordered',
          {},
          [1, 2, 3].map((n) => block('list-item', {}, [block('paragraph', {}, [text(`Item ${n} of list ${i}`)])])),
        ),
      );
    else if (kind === 7) out.push(block('hint', { style: 'info' }, [block('paragraph', {}, [text(`A hint, number ${i}, with a sentence of text.`)])]));
    else if (kind === 8)
      out.push(
        block(
          'code',
          { syntax: 'javascript', title: `example-${i}.js` },
          ['const a = 1;', 'function f(x) {', '  return x * 2; // double', '}', 'console.log(f(a));'].map((l) => block('code-line', {}, [text(l)])),
        ),
      );
    else out.push(block('paragraph', {}, [text(`Paragraph ${i}: `.padEnd(240, 'lorem ipsum dolor sit amet '))]));
  }
  return out;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

async function coldRenders(): Promise<{ p50: number; p99: number; bytes: number }> {
  const r = await serveSampleReader({ cache: { resolveTtlMs: 0 } });
  try {
    const space = r.fixture.spaces.find((s) => s.id === 'space-guides-v2')!;
    const times: number[] = [];
    let bytes = 0;
    for (let round = 0; round < ROUNDS + 10; round++) {
      // A new revision: nothing of it is cached (tree, document, rendered page).
      r.fixture.publishRevision({
        ...space,
        revisionId: `rev-bench-${round}`,
        documents: { ...space.documents, 'p-configure': { object: 'document', data: {}, nodes: hundredBlocks(round) } },
      });
      const t0 = performance.now();
      const res = await fetch(`${r.url}/acme-inc/acme/configure`);
      const body = await res.text();
      const ms = performance.now() - t0;
      if (res.status !== 200 || !body.includes(`round ${round}`)) throw new Error(`cold render ${round}: ${res.status}`);
      bytes = body.length;
      if (round >= 10) times.push(ms);
    }
    return { p50: quantile(times, 0.5), p99: quantile(times, 0.99), bytes };
  } finally {
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
    const statics = await measure({ url: urls.static, pids: { server: child.pid! } }, s);
    const reader = await measure({ url: urls.reader, pids: { server: child.pid! } }, s);
    for (const m of [statics, reader]) if (m.non2xx || m.errors) throw new Error(`failed requests: ${JSON.stringify(m)}`);
    const cold = await coldRenders();
    const fresh = await freshness();
    const row = (name: string, m: { requestsPerSec: number; latencyP50Ms: number; latencyP99Ms: number }) =>
      `${name.padEnd(44)} ${String(Math.round(m.requestsPerSec)).padStart(8)} ${String(m.latencyP50Ms).padStart(8)} ${String(m.latencyP99Ms).padStart(8)}`;
    console.log(`\n${'served'.padEnd(44)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}`);
    console.log(row('(a) static file server, same HTML', statics));
    console.log(row('(b) reader, cached page', reader));
    console.log(`ratio cached page / static server: ${(reader.requestsPerSec / statics.requestsPerSec).toFixed(2)}× (goal ≥ 0.5×)`);
    console.log(`cold render of a 100-block page: p50 ${cold.p50.toFixed(1)} ms, p99 ${cold.p99.toFixed(1)} ms over ${ROUNDS} rounds, ${cold.bytes} bytes (goal p50 ≤ 25 ms)`);
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
