import { randomBytes } from 'node:crypto';
import { connectContent, officialPage, officialRevision, officialSemanticChange, officialUpdateChange } from '@bindery/content/client';
import { IdentityEvents as I } from '@bindery/identity/client';
import { assertMatchesSpec, infraEnv, readEvents, ServiceUnderTest, startServiceUnderTest } from '@bindery/shared/testing';
import type { ContentDeps } from '../content-deps';
import { contentServiceWith } from '../content-server';
import { identityStandIn } from '@bindery/identity/projection';

const user = (name: string) => ({ userId: `${name}-${randomBytes(3).toString('hex')}`, isInstanceAdmin: false });
const admin = user('admin');
const reviewer = user('reviewer');
const editor = user('editor');
const outsider = user('outsider');
const org = `org-${randomBytes(3).toString('hex')}`;
const namespace = `mr${randomBytes(3).toString('hex')}.`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Who = typeof admin;

describe('MergeRevisions and DiffRevisions (in process, real MongoDB and Kafka)', () => {
  let service: ServiceUnderTest<ContentDeps>;
  let clients: ReturnType<typeof connectContent>;

  beforeAll(async () => {
    service = await startServiceUnderTest(contentServiceWith(Date.now, identityStandIn), { CONTENT_PURGE_EVERY_MS: '86400000', KAFKA_NAMESPACE: namespace });
    clients = connectContent(service.address, 60000);
    const deps = service.running.deps;
    for (const [who, role] of [
      [admin, 'admin'],
      [reviewer, 'review'],
      [editor, 'edit'],
    ] as const) {
      await deps.access.handlers[I.memberAdded.type](I.memberAdded.create('tests', who.userId, { organizationId: org, userId: who.userId, role }, org));
    }
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });

  const apply = async (spaceId: string, changes: unknown[], base = '') => {
    const r = await clients.revisions.applyChanges(
      { spaceId, changesJson: JSON.stringify(changes), updateCurrent: !base, baseRevisionId: base, revisionType: '', mergedFrom: '', revertRevisionId: '' },
      { caller: admin },
    );
    return { ...r, changes: r.changes.map(officialUpdateChange) as Json[] };
  };
  const merge = (spaceId: string, base: string, head: string, extra: { mode?: string; key?: string; mergedFrom?: string; caller?: Who } = {}) =>
    clients.revisions.mergeRevisions(
      { spaceId, baseRevisionId: base, headRevisionId: head, mode: extra.mode ?? 'merge', mergedFrom: extra.mergedFrom ?? '', idempotencyKey: extra.key ?? '' },
      { caller: extra.caller ?? admin },
    );
  const diff = async (spaceId: string, from: string, to: string, limit = 0) => {
    const r = await clients.revisions.diffRevisions({ spaceId, fromRevisionId: from, toRevisionId: to, limit }, { caller: admin });
    return { changes: r.changes.map(officialSemanticChange) as Json[], more: r.more };
  };
  const current = async (spaceId: string) => (await clients.spaces.getSpace({ spaceId }, { caller: admin })).revision;
  const revision = async (spaceId: string, revisionId: string) =>
    officialRevision((await clients.revisions.getRevision({ spaceId, revisionId, metadata: false }, { caller: admin })).revision!) as Json;
  const text = async (spaceId: string, pageId: string, revisionId = '') =>
    (
      officialPage(
        (await clients.revisions.getPage({ revision: { spaceId, revisionId, metadata: true }, pageId, path: '', format: 'markdown', evaluated: false }, { caller: admin })).page!,
      ).markdown as string
    ).trim();
  const revisionsOf = (spaceId: string) => service.running.mongo.db.collection('revisions').countDocuments({ spaceId });

  /** A space with pages A and B; `base` is its current revision. */
  async function twoPages() {
    const space = await clients.spaces.createSpace({ organizationId: org, title: 'Merges' }, { caller: admin });
    const r = await apply(space.id, [
      { operation: 'insert_page', title: 'A', document: { markdown: 'a0\n\nshared' } },
      { operation: 'insert_page', title: 'B', document: { markdown: 'b0' } },
    ]);
    const [a, b] = r.changes.map((c) => c.page.id as string);
    return { space: space.id, a, b, base: r.revisionId };
  }

  test('edits to different pages both land: a merge revision with parents [current, head] becomes current, and announces itself', async () => {
    const { space, a, b, base } = await twoPages();
    const head = await apply(space, [{ operation: 'update_page', page: a, document: { markdown: 'a1 from the change request' } }], base);
    const live = await apply(space, [{ operation: 'update_page', page: b, document: { markdown: 'b1 live' } }]);
    const r = await merge(space, base, head.revisionId, { mergedFrom: 'cr-1' });
    expect(r).toMatchObject({ result: 'merge', spaceRevisionId: live.revisionId });
    expect(await current(space)).toBe(r.revisionId);
    expect(await revision(space, r.revisionId)).toMatchObject({ type: 'merge', parents: [live.revisionId, head.revisionId], mergedFrom: 'cr-1' });
    expect(await text(space, a)).toBe('a1 from the change request');
    expect(await text(space, b)).toBe('b1 live');
    const events = await readEvents(infraEnv().KAFKA_BROKERS.split(','), `${namespace}bindery.content.v1`, (all) => all.some((e) => (e.data as Json).revisionId === r.revisionId));
    expect(events.find((e) => (e.data as Json).revisionId === r.revisionId)).toMatchObject({
      type: 'content.revision.created',
      subject: space,
      data: { parentRevisionId: live.revisionId, changedPages: [a], isCurrent: true, type: 'merge' },
    });
  });

  test('both sides changing one block: conflicts, and nothing is written', async () => {
    const { space, a, base } = await twoPages();
    const head = await apply(space, [{ operation: 'update_page', page: a, document: { markdown: 'theirs\n\nshared' } }], base);
    const live = await apply(space, [{ operation: 'update_page', page: a, document: { markdown: 'ours\n\nshared' } }]);
    const before = await revisionsOf(space);
    const r = await merge(space, base, head.revisionId);
    expect(r).toMatchObject({ result: 'conflicts', revisionId: live.revisionId, spaceRevisionId: live.revisionId });
    expect(r.conflicts).toEqual([{ kind: 'document', page: a, reason: expect.stringContaining('same blocks') }]);
    expect(await current(space)).toBe(live.revisionId);
    expect(await revisionsOf(space)).toBe(before);
    expect(await text(space, a)).toBe('ours\n\nshared');
  });

  test('when the space did not move since the base, the merge takes the head as it is', async () => {
    const { space, a, base } = await twoPages();
    const head = await apply(space, [{ operation: 'update_page', page: a, title: 'A renamed', document: { markdown: 'a2' } }], base);
    const r = await merge(space, base, head.revisionId);
    expect(r.result).toBe('merge');
    const revisions = service.running.mongo.db.collection('revisions');
    const [merged, headRecord] = await Promise.all([revisions.findOne({ _id: r.revisionId as never }), revisions.findOne({ _id: head.revisionId as never })]);
    expect([merged!.pages, merged!.files]).toEqual([headRecord!.pages, headRecord!.files]);
    expect(merged).toMatchObject({ parents: [base, head.revisionId], changedPages: [a], deletedPages: [] });
    expect(await text(space, a)).toBe('a2');
  });

  test('update brings the space into the head as a revision of type update, without moving the space', async () => {
    const { space, a, b, base } = await twoPages();
    const head = await apply(space, [{ operation: 'update_page', page: a, document: { markdown: 'a1\n\nshared' } }], base);
    // nothing to bring in yet: the head is answered as it is
    expect(await merge(space, base, head.revisionId, { mode: 'update', caller: editor })).toMatchObject({ result: 'update', revisionId: head.revisionId, spaceRevisionId: base });
    const live = await apply(space, [{ operation: 'update_page', page: b, document: { markdown: 'b1' } }]);
    const r = await merge(space, base, head.revisionId, { mode: 'update', caller: editor });
    expect(r).toMatchObject({ result: 'update', spaceRevisionId: live.revisionId });
    expect(r.revisionId).not.toBe(head.revisionId);
    expect(await current(space)).toBe(live.revisionId);
    expect(await revision(space, r.revisionId)).toMatchObject({ type: 'update', parents: [head.revisionId, live.revisionId] });
    expect([await text(space, a, r.revisionId), await text(space, b, r.revisionId)]).toEqual(['a1\n\nshared', 'b1']);
    // the updated head then merges with the space's revision as its base: nothing left to reconcile
    const merged = await merge(space, live.revisionId, r.revisionId);
    expect(merged.result).toBe('merge');
    expect([await text(space, a), await text(space, b)]).toEqual(['a1\n\nshared', 'b1']);
  });

  test('the same idempotency key twice answers the first merge and writes nothing more', async () => {
    const { space, a, b, base } = await twoPages();
    const head = await apply(space, [{ operation: 'update_page', page: a, title: 'A once' }], base);
    await apply(space, [{ operation: 'update_page', page: b, title: 'B live' }]);
    const key = `key-${randomBytes(4).toString('hex')}`;
    const [x, y] = await Promise.all([merge(space, base, head.revisionId, { key }), merge(space, base, head.revisionId, { key })]);
    const count = await revisionsOf(space);
    const z = await merge(space, base, head.revisionId, { key });
    expect(new Set([x.revisionId, y.revisionId, z.revisionId]).size).toBe(1);
    expect([x.result, y.result, z.result]).toEqual(['merge', 'merge', 'merge']);
    expect(await revisionsOf(space)).toBe(count);
    expect(await current(space)).toBe(x.revisionId);
  });

  test('a locked space refuses merges; merging needs the review role, updating the edit role; an invisible space is not found', async () => {
    const { space, a, base } = await twoPages();
    const head = await apply(space, [{ operation: 'update_page', page: a, title: 'A2' }], base);
    await expect(merge(space, base, head.revisionId, { caller: editor })).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(merge(space, base, head.revisionId, { caller: outsider })).rejects.toMatchObject({ kind: 'not_found' });
    await expect(merge(space, base, 'no-such-revision')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(merge(space, base, head.revisionId, { mode: 'rebase' })).rejects.toMatchObject({ kind: 'invalid' });
    const other = await twoPages();
    await expect(merge(space, base, other.base)).rejects.toMatchObject({ kind: 'not_found' });

    await clients.spaces.updateSpace({ spaceId: space, editMode: 'locked' }, { caller: admin });
    await expect(merge(space, base, head.revisionId, { caller: reviewer })).rejects.toMatchObject({ kind: 'precondition' });
    expect(await current(space)).toBe(base);
    await clients.spaces.updateSpace({ spaceId: space, editMode: 'live' }, { caller: admin });
    expect((await merge(space, base, head.revisionId, { caller: reviewer })).result).toBe('merge');
    await expect(clients.revisions.diffRevisions({ spaceId: space, fromRevisionId: base, toRevisionId: head.revisionId, limit: 0 }, { caller: outsider })).rejects.toMatchObject({
      kind: 'not_found',
    });
  });

  test('DiffRevisions: pages created, edited, deleted, moved and reordered, and files created, in the official shapes', async () => {
    const space = (await clients.spaces.createSpace({ organizationId: org, title: 'Diffs' }, { caller: admin })).id;
    const r = await apply(
      space,
      ['A', 'B', 'D', 'E', 'F', 'G'].map((title) => ({ operation: 'insert_page', title, document: { markdown: `${title} body` } })),
    );
    const [a, b, d, , , g] = r.changes.map((c) => c.page.id as string);
    const head = await apply(
      space,
      [
        { operation: 'insert_page', title: 'C', document: { markdown: 'new' } },
        { operation: 'update_page', page: a, title: 'A2', document: { markdown: 'A body, edited' } },
        { operation: 'delete_page', page: b },
        { operation: 'update_page', page: d, into: a },
        { operation: 'update_page', page: g, at: 0 },
        { operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: Buffer.from('not really a png').toString('base64') }] },
      ],
      r.revisionId,
    );
    const c = head.changes.find((x) => x.object === 'created_page')!.page.id as string;
    const all = await diff(space, r.revisionId, head.revisionId, 100);
    assertMatchesSpec('0.202.0', 'get', '/spaces/{spaceId}/change-requests/{changeRequestId}/changes', 200, all);
    const sorted = [a, b, c, d, g].sort();
    expect(all.more).toBe(0);
    expect(all.changes.filter((x) => x.page).map((x) => [x.page.id, x.type])).toEqual(
      sorted.flatMap((id) => (id === a ? [[a, 'page_edited']] : [[id, { [b]: 'page_deleted', [c]: 'page_created', [d]: 'page_moved', [g]: 'page_moved' }[id]]])),
    );
    const byType = (type: string, id: string) => all.changes.find((x) => x.type === type && x.page.id === id)!;
    expect(byType('page_edited', a)).toEqual({
      type: 'page_edited',
      page: { id: a, type: 'document', title: 'A2', path: 'a' },
      attributes: { title: { before: 'A', after: 'A2' }, document: { before: expect.any(String), after: expect.any(String) } },
    });
    expect(byType('page_deleted', b).page).toEqual({ id: b, type: 'document', title: 'B', path: 'b' });
    expect(byType('page_created', c).page).toEqual({ id: c, type: 'document', title: 'C', path: 'c' });
    expect(byType('page_moved', d)).toEqual({
      type: 'page_moved',
      page: { id: d, type: 'document', title: 'D', path: 'a/d' },
      parent: { after: { id: a, type: 'document', title: 'A2', path: 'a' } },
    });
    expect(byType('page_moved', g)).toEqual({ type: 'page_moved', page: { id: g, type: 'document', title: 'G', path: 'g' }, parent: {} });
    expect(all.changes[all.changes.length - 1]).toMatchObject({
      type: 'file_created',
      file: { name: 'dot.png', contentType: expect.any(String), downloadURL: expect.any(String) },
    });

    const two = await diff(space, r.revisionId, head.revisionId, 2);
    expect(two).toEqual({ changes: all.changes.slice(0, 2), more: all.changes.length - 2 });
    expect((await diff(space, r.revisionId, head.revisionId)).changes).toHaveLength(all.changes.length <= 10 ? all.changes.length : 10);
    expect(await diff(space, head.revisionId, head.revisionId)).toEqual({ changes: [], more: 0 });
    await expect(diff(space, r.revisionId, head.revisionId, 1001)).rejects.toMatchObject({ kind: 'invalid' });
  });

  // Longer than the tier: 20 rounds of two concurrent merges.
  test('two change requests merged at once, 20 rounds: both land every time (the loser recomputes on the winner)', async () => {
    const { space, a, b } = await twoPages();
    for (let round = 1; round <= 20; round += 1) {
      const base = await current(space);
      const [ha, hb] = await Promise.all([
        apply(space, [{ operation: 'update_page', page: a, document: { markdown: `a${round}\n\nshared` } }], base),
        apply(space, [{ operation: 'update_page', page: b, document: { markdown: `b${round}` } }], base),
      ]);
      const results = await Promise.all([merge(space, base, ha.revisionId), merge(space, base, hb.revisionId)]);
      expect(results.map((x) => x.result)).toEqual(['merge', 'merge']);
      expect([await text(space, a), await text(space, b)]).toEqual([`a${round}\n\nshared`, `b${round}`]);
      // one line of history: the second merge's first parent is the first merge
      const last = await revision(space, await current(space));
      expect(results.map((x) => x.revisionId)).toContain(last.parents[0]);
    }
  }, 300_000);
});
