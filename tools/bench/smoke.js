'use strict';
// Smoke mode (BENCH_SMOKE=1): every bench runs its whole course, from starting its system to
// printing its table, with about a second per measurement and a few rows or pages, so that the test
// suite (tools/checks/bench-smoke.spec.ts) notices the day a bench no longer runs. The figures of a
// smoke run mean nothing. Settings given explicitly still win over these.
const SMOKE = {
  bench: { BENCH_DURATION: '1', BENCH_WARMUP: '0.5', BENCH_CONNECTIONS: '4', BENCH_SPACE_PAGES: '3', BENCH_MEMBERS: '5', BENCH_OUTPUT: 'smoke.json' },
  lists: { BENCH_DURATION: '1', BENCH_WARMUP: '0.5', BENCH_CONNECTIONS: '4', BENCH_LIST_SIZES: '30,120', BENCH_PAGE_LIMIT: '10', BENCH_OUTPUT: 'smoke-lists.json' },
  'content-change': { BENCH_PAGES: '10,120', BENCH_ROUNDS: '3' },
  merge: { BENCH_PAGES: '10,120', BENCH_ROUNDS: '3', BENCH_WHOLE_ROUNDS: '1' },
  search: { BENCH_PAGES: '100,300', BENCH_ROUNDS: '5', BENCH_DELAY_ROUNDS: '2' },
  reader: { BENCH_DURATION: '1', BENCH_WARMUP: '0.5', BENCH_CONNECTIONS: '4', BENCH_PAIRS: '1', BENCH_ROUNDS: '10' },
  specs: { BENCH_ROUNDS: '1', BENCH_FIXTURES: 'gitbook-api' },
  git: { BENCH_PAGES: '30', BENCH_ROUNDS: '1' },
  load: { BENCH_DURATION: '3', BENCH_CONNECTIONS: '4', BENCH_SPACE_PAGES: '3' },
  webhooks: { BENCH_OUTAGE_S: '5', BENCH_OUTAGE_SPACES: '3', BENCH_OUTAGE_TICK_MS: '250', BENCH_BURST: '40', BENCH_BURST_SPACES: '8' },
  footprint: { FOOTPRINT_SETTLE_MS: '500', FOOTPRINT_WINDOW_MS: '1000' },
};

const smoke = (env = process.env) => env.BENCH_SMOKE === '1';

/** In smoke mode, fills the bench's unset settings in the environment (its own and its children's). */
function applySmoke(name, env = process.env) {
  if (!smoke(env)) return;
  const settings = SMOKE[name];
  if (!settings) throw new Error(`bench ${name} has no smoke settings (tools/bench/smoke.js)`);
  for (const [key, value] of Object.entries(settings)) env[key] ??= value;
  console.log(
    `[bench:${name}] smoke mode: ${Object.entries(settings)
      .map(([k]) => `${k}=${env[k]}`)
      .join(' ')}`,
  );
}

module.exports = { applySmoke, smoke, SMOKE };
