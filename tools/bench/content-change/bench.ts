// The cost of a change as a space grows, in one run, through content's gRPC ApplyChanges against the
// real replica set:
// - `update_page` on one page of a 10-page and of a 10,000-page space: per size the median wall time of
//   the call and the bytes the service sent to MongoDB in insert/update commands (command monitoring),
//   and the ratios large/small. Goal: both ≤ 2.
// - a batch of 50 `insert_page` (short documents) into a 10-page and a 10,000-page revision, once as
//   root pages (a space of root pages) and once under a section (a space of sections of 100 pages):
//   the median wall time per size and the ratio large/small. Goal ≤ 2. Each batch is written on the
//   same seeded revision (not made current), so every round measures the same size.
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
const INSERT_ROUNDS = Number(process.env.BENCH_INSERT_ROUNDS || 10);
const BATCH = 50;
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
    clients.revisions.applyChanges(
      { spaceId, changesJson: JSON.stringify(changes), updateCurrent: true, baseRevisionId: '', revisionType: '', mergedFrom: '', revertRevisionId: '' },
      { caller: user },
    );
  const body = (i: number, round: number) =>
    `## Section ${i}\n\nThis page explains topic ${i} (edit ${round}). See [the overview](/pages/README.md).\n\n- one\n- two\n\n\`\`\`js\nconsole.log(${i});\n\`\`\`\n`;

  const results: Array<{ pages: number; ms: number; bytes: number }> = [];
  const targets: Array<{ size: number; spaceId: string; pageId: string; section: string; revisionId: string }> = [];
  for (const size of SIZES) {
    const space = await clients.spaces.createSpace({ organizationId: org, title: `Bench ${size}` }, { caller: user });
    // A realistic shape: sections of up to 100 pages each.
    const sections = Math.max(1, Math.ceil(size / 100));
    const t0 = performance.now();
    let made = 0;
    let target = '';
    let section = '';
    let revisionId = '';
    for (let s = 0; s < sections && made < size; s += 1) {
      const made0 = await apply(space.id, [{ operation: 'insert_page', title: `Section ${s}`, document: { markdown: body(s, 0) } }]);
      const head = made0.changes[0].pageId;
      section ||= head;
      revisionId = made0.revisionId;
      made += 1;
      let left = Math.min(99, size - made);
      while (left > 0) {
        const batch = Array.from({ length: Math.min(50, left) }, (_, i) => ({
          operation: 'insert_page',
          into: head,
          title: `Page ${s}.${made + i}`,
          document: { markdown: body(made + i, 0) },
        }));
        const reply = await apply(space.id, batch);
        revisionId = reply.revisionId;
        target ||= reply.changes[0].pageId;
        made += batch.length;
        left -= batch.length;
      }
      target ||= head;
    }
    log(`seeded ${made} pages in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    targets.push({ size, spaceId: space.id, pageId: target, section, revisionId });
  }
  // Spaces of root pages only, seeded in batches of 50.
  const rootSpaces: Array<{ size: number; spaceId: string; revisionId: string }> = [];
  for (const size of SIZES) {
    const space = await clients.spaces.createSpace({ organizationId: org, title: `Bench roots ${size}` }, { caller: user });
    const t0 = performance.now();
    let revisionId = '';
    for (let made = 0; made < size; made += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, size - made) }, (_, i) => ({
        operation: 'insert_page',
        title: `Root ${made + i}`,
        document: { markdown: body(made + i, 0) },
      }));
      revisionId = (await apply(space.id, batch)).revisionId;
    }
    log(`seeded ${size} root pages in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    rootSpaces.push({ size, spaceId: space.id, revisionId });
  }
  const insertTargets: Array<{ shape: 'root' | 'section'; size: number; spaceId: string; revisionId: string; into?: string }> = [];
  for (const r of rootSpaces) insertTargets.push({ shape: 'root', ...r });
  for (const t of targets) insertTargets.push({ shape: 'section', size: t.size, spaceId: t.spaceId, revisionId: t.revisionId, into: t.section });
  const insertSamples = new Map<string, number[]>(insertTargets.map((t) => [`${t.shape}:${t.size}`, []]));
  for (let round = 1; round <= INSERT_ROUNDS; round += 1) {
    for (const t of round % 2 ? insertTargets : [...insertTargets].reverse()) {
      const batch = Array.from({ length: BATCH }, (_, i) => ({
        operation: 'insert_page',
        ...(t.into ? { into: t.into } : {}),
        title: `Added ${round}.${i}`,
        document: { markdown: body(i, round) },
      }));
      const start = performance.now();
      await clients.revisions.applyChanges(
        { spaceId: t.spaceId, changesJson: JSON.stringify(batch), updateCurrent: false, baseRevisionId: t.revisionId, revisionType: '', mergedFrom: '', revertRevisionId: '' },
        { caller: user },
      );
      insertSamples.get(`${t.shape}:${t.size}`)!.push(performance.now() - start);
    }
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
  console.log(`\ninsert batch of ${BATCH}   pages     median ms`);
  let insertMissed = false;
  for (const shape of ['root', 'section'] as const) {
    const ms = SIZES.map((size) => median(insertSamples.get(`${shape}:${size}`)!));
    SIZES.forEach((size, i) => console.log(`${shape.padEnd(20)} ${String(size).padEnd(9)} ${ms[i].toFixed(2).padStart(9)}`));
    const ratio = ms[ms.length - 1] / ms[0];
    insertMissed ||= ratio > GOAL;
    console.log(`ratio insert ${shape} ${SIZES[SIZES.length - 1]}/${SIZES[0]}: ${ratio.toFixed(2)} (goal ≤ ${GOAL}) ${ratio <= GOAL ? 'met' : 'MISSED'}`);
  }
  clients.close();
  await service.stop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
