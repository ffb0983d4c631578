// Processing OpenAPI documents: Bindery against the parser alone, in one run.
// - through Bindery: a whole system (identity, specs and the gateway from dist/apps, with their own
//   timings); each round gives a spec a URL (PUT …/openapi/{slug} {source: {url}}) on a loopback host
//   serving the document (the outbound guard opened to it), and waits until GET …/openapi/{slug} says
//   `complete`: the run's fetch, parse, validation, normalisation, hash and the new version's write. Each
//   round's document differs (its info.version), so every round stores a version.
// - the parser alone: @scalar/openapi-parser's `validate` of the same text in this process.
// The fixtures are public API descriptions from packages (docs/specs.md): GitHub's webhooks description
// (@octokit/openapi-webhooks 12.1.0, generated/api.github.com.json, OpenAPI 3.1, MIT) and GitBook's API
// (@gitbook/api 0.202.0, spec/openapi.json, OpenAPI 3.0). Goal (issue 24): Bindery p50 ≤ 2 × the parser's.
// Peak RSS: the specs service's (VmHWM of its process) and this process's (the parser's).
import { readFileSync } from 'node:fs';
import * as nodeHttp from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { validate } from '@scalar/openapi-parser';
import { startSystem, SystemUnderTest } from '@bindery/shared/testing';

const ROUNDS = Number(process.env.BENCH_ROUNDS || 5);
const FIXTURES = [
  { key: 'github-webhooks', name: 'GitHub webhooks (OpenAPI 3.1)', file: 'node_modules/@octokit/openapi-webhooks/generated/api.github.com.json' },
  { key: 'gitbook-api', name: 'GitBook API 0.202.0 (OpenAPI 3.0)', file: 'node_modules/gitbook-api-latest/spec/openapi.json' },
].filter((f) => (process.env.BENCH_FIXTURES || 'github-webhooks,gitbook-api').split(',').includes(f.key));
const log = (msg: string) => console.log(`[bench:specs] ${msg}`);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

function client(baseUrl: string, token: string) {
  return async (method: string, path: string, body?: unknown, expected = [200, 201]): Promise<Json> => {
    const res = await fetch(baseUrl + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!expected.includes(res.status)) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
}

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/** A round's variant of the document: the same text but its info.version (a new version each round). */
function variant(text: string, round: number): string {
  const doc = JSON.parse(text);
  doc.info.version = `${doc.info.version}-bench-${round}`;
  return JSON.stringify(doc, null, 2);
}

/** A loopback host answering /<fixture>/<round>.json with that round's variant (made before it is asked for). */
async function documentHost(variants: Map<string, string>) {
  const server = nodeHttp.createServer((req, res) => {
    const text = variants.get(req.url ?? '');
    if (!text) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

/** The peak resident set of a process (VmHWM), in MB. */
function peakRssMb(pid: number | undefined): number {
  if (!pid) return NaN;
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function main(): Promise<void> {
  const texts = new Map(FIXTURES.map((f) => [f.key, readFileSync(f.file, 'utf8')]));
  const variants = new Map<string, string>();
  for (const [key, text] of texts) for (let round = 0; round <= ROUNDS; round++) variants.set(`/${key}/${round}.json`, variant(text, round));
  const host = await documentHost(variants);
  let sut: SystemUnderTest | undefined;
  const rows: string[] = [];
  try {
    sut = await startSystem(
      { BINDERY_OUTBOUND_ALLOW_PRIVATE: 'true', SPECS_MAX_DOCUMENT_BYTES: String(7 * 1024 * 1024) },
      { services: ['identity', 'specs'], appDefaults: true, split: true },
    );
    const admin = client(sut.baseUrl, sut.adminToken);
    const orgId = (await admin('POST', '/v1/orgs', { title: 'Specs bench' })).id as string;
    for (const fixture of FIXTURES) {
      const bytes = Buffer.byteLength(variants.get(`/${fixture.key}/0.json`)!);
      // the parser alone, warmed up once
      await validate(variants.get(`/${fixture.key}/0.json`)!);
      const alone: number[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const doc = variants.get(`/${fixture.key}/${round}.json`)!;
        const t0 = performance.now();
        const result = await validate(doc);
        alone.push(performance.now() - t0);
        if (!result.valid) throw new Error(`${fixture.name} is not valid: ${JSON.stringify(result.errors?.slice(0, 3))}`);
      }
      // through Bindery: round 0 warms the service up
      const slug = fixture.key;
      const through: number[] = [];
      for (let round = 0; round <= ROUNDS; round++) {
        const t0 = performance.now();
        await admin('PUT', `/v1/orgs/${orgId}/openapi/${slug}`, { source: { url: `${host.origin}/${fixture.key}/${round}.json` } });
        for (;;) {
          const spec = await admin('GET', `/v1/orgs/${orgId}/openapi/${slug}`);
          if (spec.processingState === 'complete') {
            if (spec.lastProcessErrorCode) throw new Error(`${fixture.name}: ${JSON.stringify(spec.lastProcessedErrors)}`);
            break;
          }
          await new Promise((r) => setTimeout(r, 10));
        }
        if (round > 0) through.push(performance.now() - t0);
      }
      const versions = (await admin('GET', `/v1/orgs/${orgId}/openapi/${slug}/versions`)).count;
      if (versions !== ROUNDS + 1) throw new Error(`${fixture.name}: ${versions} versions after ${ROUNDS + 1} rounds`);
      const ratio = p50(through) / p50(alone);
      rows.push(
        `${fixture.name.padEnd(36)} ${String(bytes).padStart(9)} ${p50(alone).toFixed(0).padStart(15)} ${p50(through).toFixed(0).padStart(16)} ${ratio.toFixed(2).padStart(7)}×`,
      );
      log(`${fixture.name}: parser ${alone.map((t) => t.toFixed(0)).join(', ')} ms; Bindery ${through.map((t) => t.toFixed(0)).join(', ')} ms`);
    }
    for (const line of sut.apps.specs.output.filter((l) => l.includes('openapi spec: processed'))) log(`specs: ${line.trim()}`);
    const servicePeak = peakRssMb(sut.apps.specs.child.pid);
    console.log(`\nOpenAPI processing, ${ROUNDS} round(s) each (p50; Bindery: PUT of the URL until the spec is complete)`);
    console.log(`${'document'.padEnd(36)} ${'bytes'.padStart(9)} ${'parser p50 ms'.padStart(15)} ${'Bindery p50 ms'.padStart(16)} ${'ratio'.padStart(8)}`);
    for (const row of rows) console.log(row);
    console.log(`peak RSS MB: specs service ${servicePeak.toFixed(0)}, parser alone (this process) ${(process.resourceUsage().maxRSS / 1024).toFixed(0)}`);
  } finally {
    await sut?.stop();
    await host.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
