// The cost of merging a change request as a space grows: content's MergeRevisions on a 10-page and a
// 10,000-page space (sections of up to 100 pages), against the real replica set. Each round the change
// request's head touches 10 pages while the space changes 10 others (5 and 5 in a 10-page space), so
// the merge is three-way, not a fast path. Reports p50/p99 of the call per size and the large/small
// ratio; then the fast path (the space did not move since the base), and, as a reference, the
// whole-revision merge (three whole trees read and merged in process, what a merge costs without the
// changed-key walk).
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { connectContent } from '@bindery/content/client';
import { contentServiceWith } from '@bindery/content/feature-grpc';
import { EMPTY_TRIE_HASH, FileNode, mergeRevisions, PageNode, ROOT_KEY, RevisionSnapshot, RootNode, TrieNode, trieEntries } from '@bindery/content/domain';
import type { Document } from '@bindery/shared/markdown';
import { IdentityEvents as I } from '@bindery/identity/client';
import { identityStandIn } from '@bindery/identity/projection';
import { startServiceUnderTest } from '@bindery/shared/testing';

const SIZES = (process.env.BENCH_PAGES || '10,10000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 30);
const WHOLE_ROUNDS = Number(process.env.BENCH_WHOLE_ROUNDS || 3);
const log = (msg: string) => console.log(`[bench:merge] ${msg}`);

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
}

async function main() {
  const user = { userId: `bench-${randomBytes(3).toString('hex')}`, isInstanceAdmin: false };
  const org = `org-${randomBytes(3).toString('hex')}`;
  const service = await startServiceUnderTest(contentServiceWith(Date.now, identityStandIn), { CONTENT_PURGE_EVERY_MS: '86400000', LOG_LEVEL: 'error' });
  const clients = connectContent(service.address, 120000);
  const deps = service.running.deps;
  await deps.access.handlers[I.memberAdded.type](I.memberAdded.create('bench', user.userId, { organizationId: org, userId: user.userId, role: 'admin' }, org));
  const apply = async (spaceId: string, changes: unknown[], base = '') =>
    clients.revisions.applyChanges(
      { spaceId, changesJson: JSON.stringify(changes), updateCurrent: !base, baseRevisionId: base, revisionType: '', mergedFrom: '', revertRevisionId: '' },
      { caller: user },
    );
  const merge = (spaceId: string, base: string, head: string) =>
    clients.revisions.mergeRevisions({ spaceId, baseRevisionId: base, headRevisionId: head, mode: 'merge', mergedFrom: 'bench', idempotencyKey: '' }, { caller: user });
  const current = async (spaceId: string) => (await clients.spaces.getSpace({ spaceId }, { caller: user })).revision;
  const body = (i: number, round: number) => `## Section ${i}\n\nThis page explains topic ${i} (edit ${round}).\n\n- one\n- two\n`;
  const edits = (pages: string[], round: number) => pages.map((page, i) => ({ operation: 'update_page', page, document: { markdown: body(i, round) } }));

  /** The whole revision in memory, read the way a merge without the changed-key walk would. */
  async function snapshot(spaceId: string, revisionId: string): Promise<RevisionSnapshot> {
    const record = (await deps.revisions.get(spaceId, revisionId))!;
    const nodes = { nodes: (hashes: readonly string[]) => deps.objects.getMany<TrieNode>(spaceId, hashes) };
    const [pageEntries, fileEntries] = await Promise.all([trieEntries(nodes, record.pages ?? EMPTY_TRIE_HASH), trieEntries(nodes, record.files ?? EMPTY_TRIE_HASH)]);
    const records = await deps.objects.getMany<PageNode | RootNode>(spaceId, [...pageEntries.values()]);
    const pages = new Map<string, PageNode>();
    let root: RootNode = { children: [] };
    for (const [key, hash] of pageEntries) {
      if (key === ROOT_KEY) root = records.get(hash) as RootNode;
      else pages.set(key, records.get(hash) as PageNode);
    }
    const documents = await deps.objects.getMany<Document>(
      spaceId,
      [...pages.values()].flatMap((p) => (p.document ? [p.document] : [])),
    );
    const fileRecords = await deps.objects.getMany<FileNode>(spaceId, [...fileEntries.values()]);
    return { root, pages, documents, files: new Map([...fileEntries].map(([id, hash]) => [id, fileRecords.get(hash)!])) };
  }

  const spaces: Array<{ size: number; spaceId: string; pages: string[] }> = [];
  for (const size of SIZES) {
    const space = await clients.spaces.createSpace({ organizationId: org, title: `Bench ${size}` }, { caller: user });
    const sections = Math.max(1, Math.ceil(size / 100));
    const t0 = performance.now();
    const pages: string[] = [];
    for (let s = 0; s < sections && pages.length < size; s += 1) {
      const head = (await apply(space.id, [{ operation: 'insert_page', title: `Section ${s}`, document: { markdown: body(s, 0) } }])).changes[0].pageId;
      pages.push(head);
      let left = Math.min(99, size - pages.length);
      while (left > 0) {
        const batch = Array.from({ length: Math.min(50, left) }, (_, i) => ({
          operation: 'insert_page',
          into: head,
          title: `Page ${s}.${pages.length + i}`,
          document: { markdown: body(i, 0) },
        }));
        pages.push(...(await apply(space.id, batch)).changes.map((c) => c.pageId));
        left -= batch.length;
      }
    }
    log(`seeded ${pages.length} pages in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    spaces.push({ size, spaceId: space.id, pages });
  }

  const threeWay = new Map<number, number[]>(SIZES.map((s) => [s, []]));
  const fast = new Map<number, number[]>(SIZES.map((s) => [s, []]));
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const t of round % 2 ? spaces : [...spaces].reverse()) {
      const n = Math.min(10, Math.floor(t.pages.length / 2));
      // spread over the space: the change request's pages and the space's own pages in different sections
      const step = Math.max(1, Math.floor(t.pages.length / (2 * n)));
      const picked = Array.from({ length: 2 * n }, (_, i) => t.pages[(i * step + round) % t.pages.length]);
      const [mine, theirs] = [picked.filter((_, i) => i % 2 === 0), picked.filter((_, i) => i % 2 === 1)];
      let base = await current(t.spaceId);
      let head = (await apply(t.spaceId, edits(mine, round), base)).revisionId;
      await apply(t.spaceId, edits(theirs, round));
      let start = performance.now();
      const r = await merge(t.spaceId, base, head);
      threeWay.get(t.size)!.push(performance.now() - start);
      if (r.result !== 'merge') throw new Error(`round ${round}: ${r.result} ${JSON.stringify(r.conflicts)}`);

      base = await current(t.spaceId);
      head = (await apply(t.spaceId, edits(mine, round + 1000), base)).revisionId;
      start = performance.now();
      await merge(t.spaceId, base, head);
      fast.get(t.size)!.push(performance.now() - start);
    }
  }

  const whole = new Map<number, number[]>(SIZES.map((s) => [s, []]));
  for (const t of spaces) {
    for (let round = 1; round <= WHOLE_ROUNDS; round += 1) {
      const n = Math.min(10, Math.floor(t.pages.length / 2));
      const picked = t.pages.slice(round, round + 2 * n);
      const base = await current(t.spaceId);
      const head = (await apply(t.spaceId, edits(picked.slice(0, n), round + 2000), base)).revisionId;
      const ours = (await apply(t.spaceId, edits(picked.slice(n), round + 2000))).revisionId;
      const start = performance.now();
      const [b, o, h] = await Promise.all([snapshot(t.spaceId, base), snapshot(t.spaceId, ours), snapshot(t.spaceId, head)]);
      const result = mergeRevisions(b, o, h, new Date().toISOString());
      whole.get(t.size)!.push(performance.now() - start);
      if (result.conflicts.length) throw new Error('whole-revision reference merge conflicted');
    }
  }

  const row = (label: string, xs: number[]) => `${label.padEnd(34)} ${quantile(xs, 0.5).toFixed(1).padStart(9)} ${quantile(xs, 0.99).toFixed(1).padStart(9)}   (n=${xs.length})`;
  console.log(`\n${'MergeRevisions'.padEnd(34)} ${'p50 ms'.padStart(9)} ${'p99 ms'.padStart(9)}`);
  for (const size of SIZES) {
    console.log(row(`${size} pages, three-way`, threeWay.get(size)!));
    console.log(row(`${size} pages, fast path`, fast.get(size)!));
    console.log(row(`${size} pages, whole-revision (ref.)`, whole.get(size)!));
  }
  const [small, large] = [SIZES[0], SIZES[SIZES.length - 1]];
  const ratio = quantile(threeWay.get(large)!, 0.5) / quantile(threeWay.get(small)!, 0.5);
  console.log(`\nratio p50 three-way ${large}/${small}: ${ratio.toFixed(2)}`);
  clients.close();
  await service.stop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
