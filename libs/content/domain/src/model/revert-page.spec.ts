import { Document, markdownToDocument } from '@bindery/shared/markdown';
import { DomainError } from '@bindery/platform/errors';
import { applyChanges, ApplyContext } from './apply-changes';
import { ContentChange, parseChanges } from './change-input';
import { contentHash } from './content-hash';
import { PageNode, RootNode } from './page-node';
import { RevisionDraft, RevisionSource } from './revision-draft';

const T0 = '2026-01-01T00:00:00.000Z';
const NOW = '2026-02-01T00:00:00.000Z';

/** A revision in memory: pages by id, the top-level order, documents by address. */
function revision(pages: PageNode[], top: string[], documents: Map<string, Document>): RevisionSource {
  const byId = new Map(pages.map((p) => [p.id, p]));
  return {
    page: async (id) => byId.get(id),
    root: async (): Promise<RootNode> => ({ children: top }),
    file: async () => undefined,
    files: async () => [],
    document: async (hash) => documents.get(hash),
  };
}

/** Writes a draft's result as a revision (what the store would hold). */
async function written(draft: RevisionDraft, ids: string[]): Promise<RevisionSource> {
  const pages: PageNode[] = [];
  for (const id of ids) {
    const p = await draft.page(id);
    if (p) pages.push(p);
  }
  const documents = new Map<string, Document>();
  for (const p of pages) if (p.document) documents.set(p.document, (await draft.document(p.document))!);
  return revision(pages, (await draft.root()).children, documents);
}

const page = (id: string, extra: Partial<PageNode> = {}): PageNode => ({
  id,
  type: 'document',
  title: id.toUpperCase(),
  slug: id,
  parent: null,
  children: [],
  createdAt: T0,
  updatedAt: T0,
  ...extra,
});

/** The base: a, b (with sub-page b1), c at the top; a's document is "alpha" in two paragraphs. */
function base() {
  const documents = new Map<string, Document>();
  const doc = markdownToDocument('alpha one\n\nalpha two').document;
  documents.set(contentHash(doc), doc);
  const pages = [page('a', { document: contentHash(doc) }), page('b', { children: ['b1'] }), page('b1', { parent: 'b' }), page('c')];
  return revision(pages, ['a', 'b', 'c'], documents);
}

async function apply(source: RevisionSource, changes: ContentChange[], revert: RevisionSource | undefined = undefined) {
  const draft = new RevisionDraft(source);
  let n = 0;
  const ctx: ApplyContext = {
    now: NOW,
    newId: () => `new${++n}`,
    ingest: async () => {
      throw new Error('no files here');
    },
    revertSource: async (id) => (id === 'gone' || !revert ? undefined : { id: id ?? 'base', revision: revert }),
  };
  const outcome = await applyChanges(draft, changes, ctx);
  return { draft, outcome };
}

const markdownOf = async (draft: RevisionDraft, id: string) => {
  const p = await draft.page(id);
  const doc = p?.document ? await draft.document(p.document) : undefined;
  return (doc?.nodes ?? []).map((n) => JSON.stringify(n)).join('|');
};

describe('revert_page', () => {
  it('is accepted by the change parser, its fields checked', () => {
    const change = { operation: 'revert_page', page: 'a', revision: 'r1', block: ['k1'] };
    expect(parseChanges(JSON.stringify([change]))).toEqual([change]);
    expect(() => parseChanges(JSON.stringify([{ operation: 'revert_page' }]))).toThrow(/changes\[0\]\.page is required/);
    expect(() => parseChanges(JSON.stringify([{ operation: 'revert_page', page: 'a', block: [1] }]))).toThrow(/block must be a list/);
    expect(() => parseChanges(JSON.stringify([{ operation: 'revert_page', page: 'a', other: 1 }]))).toThrow(/unknown field "other"/);
  });

  it('gives a changed page its fields, document, parent and position back; its current sub-pages stay', async () => {
    const b0 = base();
    const { draft: d1 } = await apply(b0, [
      { operation: 'update_page', page: 'a', title: 'Renamed', emoji: '1f600', into: 'c', document: { markdown: 'changed' } },
      { operation: 'insert_page', into: 'a', title: 'Child', document: {} },
    ]);
    const edited = await written(d1, ['a', 'b', 'b1', 'c', 'new1']);
    expect((await edited.root()).children).toEqual(['b', 'c']);

    const { draft, outcome } = await apply(edited, [{ operation: 'revert_page', page: 'a' }], b0);
    const a = (await draft.page('a'))!;
    expect(a).toMatchObject({ title: 'A', slug: 'a', parent: null, children: ['new1'], updatedAt: T0 });
    expect(a.emoji).toBeUndefined();
    expect((await draft.root()).children).toEqual(['a', 'b', 'c']);
    expect((await draft.page('c'))!.children).toEqual([]);
    expect(await markdownOf(draft, 'a')).toBe(await markdownOf(new RevisionDraft(b0), 'a'));
    expect(draft.documents.has(a.document!)).toBe(true);
    expect(outcome.changes).toEqual([{ object: 'updated_page', page: 'a' }]);
  });

  it('removes a page added since, with its sub-pages', async () => {
    const b0 = base();
    const { draft: d1 } = await apply(b0, [
      { operation: 'insert_page', title: 'New', document: {} },
      { operation: 'insert_page', into: 'new1', title: 'Under new', document: {} },
    ]);
    const edited = await written(d1, ['a', 'b', 'b1', 'c', 'new1', 'new2']);
    const { draft, outcome } = await apply(edited, [{ operation: 'revert_page', page: 'new1' }], b0);
    expect(await draft.page('new1')).toBeUndefined();
    expect(await draft.page('new2')).toBeUndefined();
    expect((await draft.root()).children).toEqual(['a', 'b', 'c']);
    expect(outcome.changes.map((c) => c.object)).toEqual(['deleted_page', 'deleted_page']);
  });

  it('brings a deleted page back at its old place with its deleted sub-pages; a slug taken meanwhile gets a suffix', async () => {
    const b0 = base();
    const { draft: d1 } = await apply(b0, [
      { operation: 'delete_page', page: 'b' },
      { operation: 'insert_page', title: 'B', slug: 'b', document: {} },
    ]);
    const edited = await written(d1, ['a', 'b', 'b1', 'c', 'new1']);
    expect((await edited.root()).children).toEqual(['a', 'c', 'new1']);
    const { draft, outcome } = await apply(edited, [{ operation: 'revert_page', page: 'b' }], b0);
    expect((await draft.root()).children).toEqual(['a', 'b', 'c', 'new1']);
    expect(await draft.page('b')).toMatchObject({ slug: 'b-1', parent: null, children: ['b1'] });
    expect(await draft.page('b1')).toMatchObject({ slug: 'b1', parent: 'b' });
    expect(outcome.changes).toEqual([
      { object: 'created_page', page: 'b' },
      { object: 'created_page', page: 'b1' },
    ]);
  });

  it('with block, reverts only the blocks named: an added one goes, a deleted one comes back after its old predecessor', async () => {
    const b0 = base();
    const { draft: d1 } = await apply(b0, [{ operation: 'update_page', page: 'a', document: { markdown: 'alpha two\n\nadded' } }]);
    const edited = await written(d1, ['a', 'b', 'b1', 'c']);
    const keysOf = async (src: RevisionSource) => {
      const p = (await src.page('a'))!;
      return (await src.document(p.document!))!.nodes.map((n) => (n as { key: string }).key);
    };
    const [one, two] = await keysOf(b0);
    const [two2, added] = await keysOf(edited);
    expect(two2).toBe(two);
    const { draft } = await apply(edited, [{ operation: 'revert_page', page: 'a', block: [added, one] }], b0);
    const p = (await draft.page('a'))!;
    expect((await draft.document(p.document!))!.nodes.map((n) => (n as { key: string }).key)).toEqual([one, two]);
    expect(p.title).toBe('A');
  });

  it('refuses what it cannot revert: no such page on either side, no such revision, no default revision, no such block', async () => {
    const b0 = base();
    const refused = async (changes: ContentChange[], revert: RevisionSource | undefined, message: RegExp) => {
      const err = await apply(b0, changes, revert).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).kind).toBe('invalid');
      expect((err as Error).message).toMatch(message);
    };
    await refused([{ operation: 'revert_page', page: 'zzz' }], b0, /no page "zzz" in this revision or in revision "base"/);
    await refused([{ operation: 'revert_page', page: 'a', revision: 'gone' }], b0, /revision: no revision "gone"/);
    await refused([{ operation: 'revert_page', page: 'a' }], undefined, /revision is required outside a change request/);
    await refused([{ operation: 'revert_page', page: 'a', block: ['nope'] }], b0, /no block "nope"/);
  });
});
