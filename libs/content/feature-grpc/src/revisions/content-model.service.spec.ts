import { randomBytes } from 'node:crypto';
import { connectContent, officialLinkStats, officialLinkUsage, officialPage, officialRevision, officialUpdateChange } from '@bindery/content/client';
import { IdentityEvents as I } from '@bindery/identity/client';
import { infraEnv, readEvents, ServiceUnderTest, startServiceUnderTest } from '@bindery/shared/testing';
import type { ContentDeps } from '../content-deps';
import { contentServiceWith } from '../content-server';
import { identityStandIn } from '@bindery/identity/projection';

const admin = { userId: `admin-${randomBytes(3).toString('hex')}`, isInstanceAdmin: false };
const reader = { userId: `reader-${randomBytes(3).toString('hex')}`, isInstanceAdmin: false };
const org = `org-${randomBytes(3).toString('hex')}`;
const namespace = `cm${randomBytes(3).toString('hex')}.`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('content model (in process, real MongoDB and Kafka)', () => {
  let service: ServiceUnderTest<ContentDeps>;
  let clients: ReturnType<typeof connectContent>;

  beforeAll(async () => {
    service = await startServiceUnderTest(contentServiceWith(Date.now, identityStandIn), { CONTENT_PURGE_EVERY_MS: '86400000', KAFKA_NAMESPACE: namespace });
    clients = connectContent(service.address, 20000);
    const deps = service.running.deps;
    await deps.access.handlers[I.memberAdded.type](I.memberAdded.create('tests', admin.userId, { organizationId: org, userId: admin.userId, role: 'admin' }, org));
    await deps.access.handlers[I.memberAdded.type](I.memberAdded.create('tests', reader.userId, { organizationId: org, userId: reader.userId, role: 'read' }, org));
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });

  const newSpace = async (title = 'Docs') => clients.spaces.createSpace({ organizationId: org, title }, { caller: admin });
  const apply = async (spaceId: string, changes: unknown[], extra: { baseRevisionId?: string; updateCurrent?: boolean } = {}) => {
    const r = await clients.revisions.applyChanges(
      {
        spaceId,
        changesJson: JSON.stringify(changes),
        updateCurrent: extra.updateCurrent ?? true,
        baseRevisionId: extra.baseRevisionId ?? '',
        revisionType: '',
        mergedFrom: '',
        revertRevisionId: '',
      },
      { caller: admin },
    );
    return { ...r, changes: r.changes.map(officialUpdateChange) as Json[] };
  };
  const pages = async (spaceId: string, revisionId = '') =>
    (await clients.revisions.listPages({ spaceId, revisionId, metadata: true }, { caller: admin })).pages.map(officialPage) as Json[];
  const page = async (spaceId: string, pageId: string, format = 'document', revisionId = '') =>
    officialPage(
      (await clients.revisions.getPage({ revision: { spaceId, revisionId, metadata: true }, pageId, path: '', format, evaluated: false }, { caller: admin })).page!,
    ) as Json;
  const links = async (spaceId: string, status = '') => {
    const r = await clients.revisions.listLinks({ revision: { spaceId, revisionId: '', metadata: true }, pageId: '', status, page: undefined }, { caller: admin });
    return { items: r.items.map(officialLinkUsage) as Json[], stats: officialLinkStats(r.stats) as Json };
  };

  test('pages nest to any depth, take slugs from titles (unique among siblings, stable on rename) and paths from the slug chain', async () => {
    const space = await newSpace();
    const first = await apply(space.id, [
      { operation: 'insert_page', title: 'Getting Started', document: { markdown: 'Welcome.' }, ref: 'gs' },
      { operation: 'insert_page', title: 'Getting Started', document: {} },
    ]);
    const [gs, twin] = first.changes.map((c) => c.page.id as string);
    expect(first.changes.map((c) => c.object)).toEqual(['created_page', 'created_page']);
    let depth = gs;
    const chain: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const r = await apply(space.id, [{ operation: 'insert_page', title: `Level ${i}`, into: depth, document: { markdown: `# Level ${i}\n\nDeep.` } }]);
      depth = r.changes[0].page.id;
      chain.push(`level-${i}`);
    }
    const tree = await pages(space.id);
    expect(tree.map((p) => [p.title, p.slug, p.path])).toEqual([
      ['Getting Started', 'getting-started', 'getting-started'],
      ['Getting Started', 'getting-started-1', 'getting-started-1'],
    ]);
    expect((await page(space.id, depth)).path).toBe(['getting-started', ...chain].join('/'));
    expect(tree[1].id).toBe(twin);

    await apply(space.id, [{ operation: 'update_page', page: gs, title: 'Start here' }]);
    const renamed = await page(space.id, gs);
    expect([renamed.title, renamed.slug]).toEqual(['Start here', 'getting-started']);
    await expect(apply(space.id, [{ operation: 'update_page', page: twin, slug: 'getting-started' }])).rejects.toMatchObject({ kind: 'invalid' });
    await expect(apply(space.id, [{ operation: 'update_page', page: gs, into: depth }])).rejects.toMatchObject({ kind: 'invalid' });
    expect((await page(space.id, gs)).title).toBe('Start here');
  });

  test('Markdown links resolve to page references by id, slug path, relative path and batch ref; unresolvable ones become text', async () => {
    const space = await newSpace();
    const base = await apply(space.id, [{ operation: 'insert_page', title: 'Guide', document: { markdown: 'Guide body.' } }]);
    const guide = base.changes[0].page.id;
    const r = await apply(space.id, [
      {
        operation: 'insert_page',
        title: 'Index',
        document: {
          markdown: `See [by id](/pages/${guide}), [by path](/pages/guide.md), [relative](./guide.md), [later](./later.md), [nowhere](/pages/missing) and [web](https://example.com).`,
        },
      },
      { operation: 'insert_page', title: 'Later page', ref: 'later', document: { markdown: 'Inserted after.' } },
    ]);
    const [index, later] = r.changes.map((c) => c.page.id as string);
    const doc = (await page(space.id, index)).document;
    const refs = JSON.stringify(doc);
    expect(refs.match(new RegExp(`"page":"${guide}"`, 'g'))?.length).toBe(3);
    expect(refs).toContain(`"page":"${later}"`);
    expect(refs).toContain('"url":"https://example.com"');
    expect(refs).toContain('nowhere');
    expect(refs).not.toContain('missing');
    const md = (await page(space.id, index, 'markdown')).markdown as string;
    expect(md).toContain(`[by id](/pages/${guide})`);
    expect(md).toContain('nowhere');
  });

  test('deleting a page breaks the links to it in the next revision, and history keeps the old revision readable', async () => {
    const space = await newSpace();
    const a = await apply(space.id, [
      { operation: 'insert_page', title: 'Target', document: { markdown: 'Target.' }, ref: 't' },
      { operation: 'insert_page', title: 'Source', document: { markdown: 'Go to [target](./t.md).' } },
    ]);
    const [target, source] = a.changes.map((c) => c.page.id as string);
    const before = await links(space.id);
    expect(before.stats).toEqual({ total: 1, broken: { total: 0 } });
    expect(before.items[0]).toMatchObject({ status: 'ok', targetReference: { kind: 'page', page: { id: target } }, locationReferences: [{ kind: 'page', page: { id: source } }] });

    const b = await apply(space.id, [{ operation: 'delete_page', page: target }]);
    expect(b.changes).toEqual([{ object: 'deleted_page', page: target }]);
    const after = await links(space.id);
    expect(after.stats).toEqual({ total: 1, broken: { total: 1 } });
    expect((await links(space.id, 'broken')).items).toHaveLength(1);
    expect((await links(space.id, 'ok')).items).toHaveLength(0);
    expect((await pages(space.id)).map((p) => p.id)).toEqual([source]);
    expect((await pages(space.id, a.revisionId)).map((p) => p.id)).toEqual([target, source]);
    const revision = officialRevision((await clients.revisions.getRevision({ spaceId: space.id, revisionId: b.revisionId, metadata: true }, { caller: admin })).revision!);
    expect(revision).toMatchObject({ object: 'revision', id: b.revisionId, parents: [a.revisionId], type: 'edits' });
  });

  test('a change is all or nothing: a bad change at the end leaves the space as it was', async () => {
    const space = await newSpace();
    const before = (await clients.spaces.getSpace({ spaceId: space.id }, { caller: admin })).revision;
    await expect(
      apply(space.id, [
        { operation: 'insert_page', title: 'Fine', document: { markdown: 'ok' } },
        { operation: 'update_page', page: 'no-such-page', title: 'x' },
      ]),
    ).rejects.toMatchObject({ kind: 'invalid' });
    expect((await clients.spaces.getSpace({ spaceId: space.id }, { caller: admin })).revision).toBe(before);
    expect(await pages(space.id)).toEqual([]);
  });

  test('readers read; only editors and up write', async () => {
    const space = await newSpace();
    await apply(space.id, [{ operation: 'insert_page', title: 'One', document: { markdown: 'one' } }]);
    expect((await clients.revisions.listPages({ spaceId: space.id, revisionId: '', metadata: true }, { caller: reader })).pages.map(officialPage)).toHaveLength(1);
    await expect(
      clients.revisions.applyChanges(
        {
          spaceId: space.id,
          changesJson: JSON.stringify([{ operation: 'delete_page', page: 'x' }]),
          updateCurrent: true,
          baseRevisionId: '',
          revisionType: '',
          mergedFrom: '',
          revertRevisionId: '',
        },
        { caller: reader },
      ),
    ).rejects.toMatchObject({ kind: 'forbidden' });
  });

  test('a revision that changes one page of 300 writes only that page, its document and the trie nodes above it', async () => {
    const space = await newSpace();
    for (let batch = 0; batch < 6; batch += 1) {
      const inserts = Array.from({ length: 50 }, (_, i) => ({
        operation: 'insert_page',
        title: `Page ${batch * 50 + i}`,
        document: { markdown: `Body of page ${batch * 50 + i}.` },
      }));
      await apply(space.id, inserts);
    }
    const all = await pages(space.id);
    expect(all).toHaveLength(300);
    const objects = service.running.mongo.db.collection('content_objects');
    const count = () => objects.countDocuments({ spaceId: space.id });
    const before = await count();
    await apply(space.id, [{ operation: 'update_page', page: all[123].id, document: { markdown: 'Changed body.' } }]);
    const written = (await count()) - before;
    // the page version, its document, and at most one trie node per level (300 entries: 2 or 3 levels)
    expect(written).toBeGreaterThanOrEqual(3);
    expect(written).toBeLessThanOrEqual(5);
    expect((await page(space.id, all[123].id, 'markdown')).markdown.trim()).toBe('Changed body.');
    expect((await page(space.id, all[124].id, 'markdown')).markdown.trim()).toBe('Body of page 124.');
  });

  // Longer than the tier: 100 rounds of two concurrent writers.
  test('two concurrent writers on one space, 100 rounds: no update is lost (the loser recomputes on the winner)', async () => {
    const space = await newSpace();
    const r = await apply(space.id, [
      { operation: 'insert_page', title: 'A', document: { markdown: 'a0' } },
      { operation: 'insert_page', title: 'B', document: { markdown: 'b0' } },
    ]);
    const [a, b] = r.changes.map((c) => c.page.id as string);
    for (let round = 1; round <= 100; round += 1) {
      await Promise.all([
        apply(space.id, [{ operation: 'update_page', page: a, document: { markdown: `a${round}` } }]),
        apply(space.id, [{ operation: 'update_page', page: b, document: { markdown: `b${round}` } }]),
      ]);
    }
    expect((await page(space.id, a, 'markdown')).markdown.trim()).toBe('a100');
    expect((await page(space.id, b, 'markdown')).markdown.trim()).toBe('b100');
    // 2 + 200 revisions in one line of history: every write saw the one before it
    let revisionId = (await clients.spaces.getSpace({ spaceId: space.id }, { caller: admin })).revision;
    let length = 0;
    while (revisionId) {
      const rev = officialRevision((await clients.revisions.getRevision({ spaceId: space.id, revisionId, metadata: false }, { caller: admin })).revision!);
      length += 1;
      revisionId = rev.parents[0];
    }
    expect(length).toBe(202);
    // About 5 s alone; a 2-core machine running other suites at once has needed more than 90 s.
  }, 300_000);

  test('with an explicit base, the second of two writers gets a conflict and changes nothing', async () => {
    const space = await newSpace();
    const r = await apply(space.id, [{ operation: 'insert_page', title: 'A', document: { markdown: 'a' } }]);
    const base = r.revisionId;
    const results = await Promise.allSettled([
      apply(space.id, [{ operation: 'update_page', page: r.changes[0].page.id, title: 'One' }], { baseRevisionId: base }),
      apply(space.id, [{ operation: 'update_page', page: r.changes[0].page.id, title: 'Two' }], { baseRevisionId: base }),
    ]);
    expect(results.filter((x) => x.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((x) => x.status === 'rejected')).toMatchObject({ reason: { kind: 'conflict' } });
  });

  test('every revision announces itself with the pages it changed', async () => {
    const space = await newSpace();
    const r = await apply(space.id, [{ operation: 'insert_page', title: 'Evented', document: { markdown: 'x' } }]);
    const events = await readEvents(infraEnv().KAFKA_BROKERS.split(','), `${namespace}bindery.content.v1`, (all) =>
      all.some((e) => e.type === 'content.revision.created' && e.subject === space.id),
    );
    const created = events.find((e) => e.type === 'content.revision.created' && e.subject === space.id)!;
    expect(created.data).toMatchObject({
      spaceId: space.id,
      revisionId: r.revisionId,
      parentRevisionId: r.parentRevisionId,
      changedPages: [r.changes[0].page.id],
      isCurrent: true,
    });
  });

  test('duplicating a space copies its content', async () => {
    const space = await newSpace('Original');
    await apply(space.id, [{ operation: 'insert_page', title: 'Kept', document: { markdown: 'Copied body.' } }]);
    const copy = await clients.spaces.duplicateSpace({ spaceId: space.id }, { caller: admin });
    const copied = await pages(copy.id);
    expect(copied.map((p) => p.title)).toEqual(['Kept']);
    expect(JSON.stringify(copied[0].document)).toContain('Copied body.');
  });
});
