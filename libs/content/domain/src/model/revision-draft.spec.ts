import { applyChanges } from './apply-changes';
import { ContentChange } from './change-input';
import { PageNode, RootNode } from './page-node';
import { RevisionDraft, RevisionSource } from './revision-draft';

/** A base revision of `size` root pages that counts the pages read from it. */
function rootPages(size: number) {
  const pages = new Map<string, PageNode>();
  for (let i = 0; i < size; i += 1) {
    const id = `p${i}`;
    pages.set(id, { id, type: 'document', title: `Page ${i}`, slug: `page-${i}`, parent: null, children: [], createdAt: 't', updatedAt: 't' } as PageNode);
  }
  const root: RootNode = { children: [...pages.keys()] };
  const reads = { pages: 0 };
  const source: RevisionSource = {
    page: async (id) => (reads.pages++, pages.get(id)),
    pagesOf: async (ids) => {
      reads.pages += ids.length;
      return new Map(ids.flatMap((id) => (pages.has(id) ? [[id, pages.get(id)!] as const] : [])));
    },
    root: async () => root,
    file: async () => undefined,
    files: async () => [],
    document: async () => undefined,
  };
  return { source, reads };
}

let ids = 0;
const ctx = { now: 'now', newId: () => `new${ids++}`, ingest: async () => Promise.reject(new Error('no files here')), revertSource: async () => undefined };
const batch = (n: number, link = ''): ContentChange[] =>
  Array.from({ length: n }, (_, i) => ({ operation: 'insert_page', title: i === 0 ? 'Page 3' : `Added ${i}`, document: { markdown: `Text ${i}. ${link}` } }) as ContentChange);

describe('a batch of inserts reads each sibling once, and none when the base slugs are known', () => {
  test.each([10, 1000])('%i root pages: a batch of 50 reads every sibling at most once', async (size) => {
    const { source, reads } = rootPages(size);
    const draft = new RevisionDraft(source);
    const outcome = await applyChanges(draft, batch(50, '[seven](./page-7.md)'), ctx);
    expect(outcome.changes).toHaveLength(50);
    // A slug taken by an existing sibling gets a suffix; the link found its page by path.
    const first = draft.pages.get(outcome.changes[0].page)!;
    expect(first.slug).toBe('page-3-1');
    expect(first.refs).toEqual([{ kind: 'page', page: 'p7' }]);
    expect(reads.pages).toBeLessThanOrEqual(size + 50);
  });

  test('with the slugs of the base known (from the batch that wrote it), the siblings are not read', async () => {
    const { source, reads } = rootPages(1000);
    const previous = new RevisionDraft(source);
    await applyChanges(previous, batch(1), ctx);
    const known = previous.knownSiblings();
    reads.pages = 0;
    // The next batch on the same base (the cached slugs are the ones before `previous` changed them).
    const base = new Map([...known].map(([parent, slugs]) => [parent, slugs.clone()]));
    base.get(null)!.delete(previous.pages.keys().next().value!);
    const draft = new RevisionDraft(source, { baseSiblings: (parent) => base.get(parent) });
    const outcome = await applyChanges(draft, batch(50, '[seven](./page-7.md)'), ctx);
    expect(draft.pages.get(outcome.changes[0].page)!.slug).toBe('page-3-1');
    // (the page each link names, once per inserted page: the batch's size, not the space's)
    expect(reads.pages).toBeLessThanOrEqual(50 + 5);
  });

  test('moves, renames and removals keep the known slugs up to date within a batch', async () => {
    const { source } = rootPages(3);
    const draft = new RevisionDraft(source);
    const changes = [
      { operation: 'insert_page', title: 'Folder', document: { markdown: 'x' } },
      { operation: 'update_page', page: 'p1', slug: 'renamed' },
      { operation: 'delete_page', page: 'p2' },
      { operation: 'insert_page', title: 'Page 1', document: { markdown: 'x' } },
      { operation: 'insert_page', title: 'Page 2', document: { markdown: 'x' } },
      { operation: 'update_page', page: 'p0', slug: 'page-2-old' },
    ] as ContentChange[];
    const outcome = await applyChanges(draft, changes, ctx);
    const slugOf = (i: number) => draft.pages.get(outcome.changes[i].page)?.slug;
    expect([slugOf(0), slugOf(1), slugOf(3), slugOf(4)]).toEqual(['folder', 'renamed', 'page-1', 'page-2']);
    expect(draft.pages.get('p0')?.slug).toBe('page-2-old');
    // p0 may not take the slug the inserted "Page 1" holds now, and may take the renamed page's old one back.
    await expect(applyChanges(new RevisionDraft(source), [...changes, { operation: 'update_page', page: 'p0', slug: 'page-1' } as ContentChange], ctx)).rejects.toThrow(
      /already has the slug "page-1"/,
    );
    await expect(applyChanges(new RevisionDraft(source), [...changes, { operation: 'update_page', page: 'p0', slug: 'page-0' } as ContentChange], ctx)).resolves.toBeTruthy();
  });
});
