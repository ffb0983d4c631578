// The cost of one change as a space grows: `update_page` on one page of a 10-page space and of a
// 10,000-page space, in one run, through content's gRPC ApplyChanges against the real replica set.
// Reports per size the median wall time of the call and the bytes the service sent to MongoDB in
// insert/update commands (command monitoring), and the ratios large/small. Goal: both ≤ 2.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { BSON } from 'mongodb';
import { connectContent } from '@bindery/content/client';
import { contentServiceWith } from '@bindery/content/feature-grpc';
import { IdentityEvents as I } from '@bindery/identity/client';
import { identityStandIn } from '@bindery/identity/projection';
import { startServiceUnderTest } from '@bindery/shared/testing';

const SIZES = (process.env.BENCH_PAGES || '10,10000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 40);
const GOAL = 2;
const log = (msg: string) => console.log(`[bench:content-change] ${msg}`);

interface CommandStarted {
  commandName: string;
  command: Record<string, unknown>;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function main() {
  const user = { userId: `bench-${randomBytes(3).toString('hex')}`, isInstanceAdmin: false };
  const org = `org-${randomBytes(3).toString('hex')}`;
  // Command monitoring counts the bytes of every insert and update the service sends.
  const url = new URL(process.env.BINDERY_TEST_MONGODB_URL!);
  url.searchParams.set('monitorCommands', 'true');
  const service = await startServiceUnderTest(contentServiceWith(Date.now, identityStandIn), {
    CONTENT_PURGE_EVERY_MS: '86400000',
    LOG_LEVEL: 'error',
    MONGODB_URL: url.toString(),
  });
  let bytes = 0;
  const client = service.running.mongo.client;
  client.on('commandStarted', (e: CommandStarted) => {
    if (e.commandName === 'insert' || e.commandName === 'update') {
      const docs = (e.command.documents ?? e.command.updates ?? []) as object[];
      for (const d of docs) bytes += BSON.calculateObjectSize(d);
    }
  });
  const clients = connectContent(service.address, 120000);
  const deps = service.running.deps;
  await deps.access.handlers[I.memberAdded.type](I.memberAdded.create('bench', user.userId, { organizationId: org, userId: user.userId, role: 'admin' }, org));
  const apply = (spaceId: string, changes: unknown[]) =>
    clients.revisions.applyChanges({ spaceId, changesJson: JSON.stringify(changes), updateCurrent: true, baseRevisionId: '', revisionType: '', mergedFrom: '' }, { caller: user });
  const body = (i: number, round: number) =>
    `## Section ${i}\n\nThis page explains topic ${i} (edit ${round}). See [the overview](/pages/README.md).\n\n- one\n- two\n\n\`\`\`js\nconsole.log(${i});\n\`\`\`\n`;

  const results: Array<{ pages: number; ms: number; bytes: number }> = [];
  const targets: Array<{ size: number; spaceId: string; pageId: string }> = [];
  for (const size of SIZES) {
    const space = await clients.spaces.createSpace({ organizationId: org, title: `Bench ${size}` }, { caller: user });
    // A realistic shape: sections of up to 100 pages each.
    const sections = Math.max(1, Math.ceil(size / 100));
    const t0 = performance.now();
    let made = 0;
    let target = '';
    for (let s = 0; s < sections && made < size; s += 1) {
      const head = JSON.parse((await apply(space.id, [{ operation: 'insert_page', title: `Section ${s}`, document: { markdown: body(s, 0) } }])).changesJson)[0].page.id as string;
      made += 1;
      let left = Math.min(99, size - made);
      while (left > 0) {
        const batch = Array.from({ length: Math.min(50, left) }, (_, i) => ({
          operation: 'insert_page',
          into: head,
          title: `Page ${s}.${made + i}`,
          document: { markdown: body(made + i, 0) },
        }));
        const created = JSON.parse((await apply(space.id, batch)).changesJson) as Array<{ page: { id: string } }>;
        target ||= created[0].page.id;
        made += batch.length;
        left -= batch.length;
      }
      target ||= head;
    }
    log(`seeded ${made} pages in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    targets.push({ size, spaceId: space.id, pageId: target });
  }
  const samples = new Map<number, { ms: number[]; bytes: number[] }>(SIZES.map((s) => [s, { ms: [], bytes: [] }]));
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const t of round % 2 ? targets : [...targets].reverse()) {
      bytes = 0;
      const start = performance.now();
      await apply(t.spaceId, [{ operation: 'update_page', page: t.pageId, document: { markdown: body(7, round) } }]);
      const s = samples.get(t.size)!;
      s.ms.push(performance.now() - start);
      s.bytes.push(bytes);
    }
  }
  for (const size of SIZES) {
    const s = samples.get(size)!;
    results.push({ pages: size, ms: median(s.ms), bytes: median(s.bytes) });
  }
  console.log('\npages     median ms   bytes written');
  for (const r of results) console.log(`${String(r.pages).padEnd(9)} ${r.ms.toFixed(2).padStart(9)}   ${String(r.bytes).padStart(13)}`);
  const [small, large] = [results[0], results[results.length - 1]];
  const timeRatio = large.ms / small.ms;
  const bytesRatio = large.bytes / small.bytes;
  console.log(`\nratio time  ${large.pages}/${small.pages}: ${timeRatio.toFixed(2)} (goal ≤ ${GOAL}) ${timeRatio <= GOAL ? 'met' : 'MISSED'}`);
  console.log(`ratio bytes ${large.pages}/${small.pages}: ${bytesRatio.toFixed(2)} (goal ≤ ${GOAL}) ${bytesRatio <= GOAL ? 'met' : 'MISSED'}`);
  clients.close();
  await service.stop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
