import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../..');

// What each bench's output must hold when it ran through: its table's lines. A bench added to
// package.json without an entry here fails the first test.
const EXPECTED: Record<string, RegExp[]> = {
  bench: [
    /^\(a\) express, fixed JSON +\d+/m,
    /^\(b\) express → gRPC echo +\d+/m,
    /^\(c\) Bindery GET \/v1\/orgs\/\{id\} +\d+/m,
    /^\(d\) Bindery GET \/v1\/spaces\/\{id\}, \d+ pages +\d+/m,
    /^\(e\) Bindery GET …\/content\/page\/\{pageId\} +\d+/m,
    /^\(f\) Bindery GET …\/members\?limit=50, \d+ members +\d+/m,
    /^Bindery read +req\/s +÷ org read +CPU ms\/req$/m,
    /^\(d\) Bindery GET \/v1\/spaces\/\{id\}, \d+ pages +\d+ +\d+\.\d\d× +\d+\.\d\d$/m,
    /^CPU ms per request, by process:$/m,
  ],
  'bench:lists': [/^first page, \d+ +\d+ +\d+/m, /^page at \d+, \d+ +\d+ +\d+/m, /^first page p50 \d+ \/ \d+ /m],
  'bench:content-change': [/^ratio time +\d+\/\d+: /m],
  'bench:merge': [/^MergeRevisions/m, /^ratio p50 three-way \d+\/\d+: /m],
  'bench:search': [/^through HTTP +search p50 ms/m, /^index update delay after a merge/m],
  'bench:reader': [
    /^reader, customised page \(cached\) +\d+/m,
    /^\(a\) customised page \/ static server: \d+\.\d\d× /m,
    /^\(b\) cold render of a page with OpenAPI blocks: p50 [\d.]+ ms, p99 [\d.]+ ms/m,
    /^ +cold render of a 100-block page: p50 /m,
    /^\(c\) MCP searchDocumentation on a \d+-page site: p50 [\d.]+ ms, p99 [\d.]+ ms/m,
    /^freshness: a merge showed after \d+ ms/m,
  ],
  'bench:git': [
    /^\(a\) git clone \+ read all \d+ files +\d+ ms$/m,
    /^\(b\) git-sync import through the API +\d+ ms$/m,
    /^ratio \(b\) \/ \(a\): \d+\.\d\d× \(goal ≤ 3×\)$/m,
    /^peak RSS MB: git-sync service \d+, content service \d+/m,
  ],
  footprint: [
    /^time to ready \(ms\) +\d+ +\d+$/m,
    /^CPU % of one core, whole stack +[\d.]+ +[\d.]+$/m,
    /^MongoDB ops\/s \(the system databases\) +[\d.]+ +[\d.]+$/m,
    /^RSS MB, Node +\d+ +\d+$/m,
  ],
  'bench:load': [/^requests \d+ in [\d.]+ s: [\d.]+ req\/s/m, /^write cycles p50 \d+ ms/m, /^merges acknowledged \d+, lost 0$/m],
  'bench:webhooks': [
    /^\(a\) 18 of 18 event types delivered; (\d+) deliveries of \1 events \(0 duplicates\); signatures verified \1\/\1$/m,
    /^\(b\) 503: delivered (\d+) of \1, out of order 0, duplicates 0$/m,
    /^\(b\) connection refused: delivered (\d+) of \1, out of order 0, duplicates 0$/m,
    /^\(b\) 503: after recovery, first delivery [\d.]+ s, last \(max delay\) [\d.]+ s/m,
    /^\(c\) latency API answer → receiver: p50 \d+ ms, p95 \d+ ms, p99 \d+ ms/m,
    /^\(c\) delivered (\d+) of \1 in [\d.]+ s: \d+ deliveries\/s; out of order 0, duplicates 0$/m,
  ],
  'bench:specs': [/^GitBook API 0\.202\.0 \(OpenAPI 3\.0\) +\d+ +\d+ +\d+ +\d+\.\d\d×$/m, /^peak RSS MB: specs service \d+, parser alone \(this process\) \d+$/m],
};

const scripts: Record<string, string> = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
const benches = Object.keys(scripts).filter((name) => /^(bench(:|$)|footprint$)/.test(name));

/** Runs the script's node file in smoke mode; resolves with its exit status and output. */
function runSmoke(script: string, timeoutMs: number): Promise<{ status: number | null; output: string }> {
  const file = scripts[script].match(/^node (\S+)$/)?.[1];
  if (!file) throw new Error(`${script}: "${scripts[script]}" is not "node <file>"`);
  const infra = {
    ...(process.env.BINDERY_TEST_MONGODB_URL ? { MONGODB_URL: process.env.BINDERY_TEST_MONGODB_URL } : {}),
    ...(process.env.BINDERY_TEST_KAFKA_BROKERS ? { KAFKA_BROKERS: process.env.BINDERY_TEST_KAFKA_BROKERS } : {}),
  };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, file)], {
      cwd: root,
      env: { ...process.env, ...infra, BENCH_SMOKE: '1', BENCH_APPS_BUILT: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    // Stopped with SIGTERM, a bench still stops what it started.
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}

// Every bench runs its whole course in smoke mode (BENCH_SMOKE=1, tools/bench/smoke.js): about a
// second per measurement, a few rows, so that CI fails the day a bench no longer starts or runs.
describe('benchmarks in smoke mode', () => {
  // The apps are built once here, not once per bench (BENCH_APPS_BUILT).
  beforeAll(() => {
    const r = spawnSync(process.execPath, [join(root, 'tools/build/build-apps.js')], { cwd: root, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`building the apps failed: ${r.stderr}`);
  });

  it('knows what every bench script prints', () => {
    expect(benches.filter((name) => !EXPECTED[name])).toEqual([]);
  });

  it.each(benches)(
    '%s runs and prints its table',
    async (script) => {
      const { status, output } = await runSmoke(script, 540000);
      const missing = (EXPECTED[script] ?? []).filter((line) => !line.test(output)).map(String);
      expect({ status, missing, tail: status === 0 && !missing.length ? '' : output.split('\n').slice(-40).join('\n') }).toEqual({ status: 0, missing: [], tail: '' });
    },
    600000,
  );
});
