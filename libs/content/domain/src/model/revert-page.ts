import { DomainError } from '@bindery/platform/errors';
import type { Document, DocumentNode } from '@bindery/shared/markdown';
import { PageNode } from './page-node';
import { RevisionDraft, RevisionSource } from './revision-draft';
import { uniqueSlug } from './slugs';

const bad = (message: string) => new DomainError('invalid', message);

/** The revision a page is reverted to, and the name it goes by in messages. */
export interface RevertSource {
  id: string;
  revision: RevisionSource;
}

/**
 * `revert_page` without `block`: the page goes back to its state in `source` — a page added since is
 * removed with its sub-pages, a page deleted since comes back (with those of its sub-pages that are
 * gone too) at its old place, and a page present in both gets its fields, document, parent and
 * position back; its current sub-pages stay. The page keeps the version it had there (its
 * `updatedAt` too), so a reverted page is no change to merge. A slug a sibling took meanwhile gets
 * a suffix; a parent that is gone puts the page at the top.
 */
export async function revertPage(draft: RevisionDraft, source: RevertSource, id: string, at: string, now: string): Promise<void> {
  const before = await source.revision.page(id);
  const current = await draft.page(id);
  if (!before && !current) throw bad(`${at}.page: no page "${id}" in this revision or in revision "${source.id}".`);
  if (!before) {
    const page = current!;
    await draft.setChildren(
      page.parent,
      (await draft.childrenOf(page.parent)).filter((c) => c !== id),
      now,
    );
    await draft.removeWithSubPages(id);
    return;
  }
  if (!current) return restore(draft, source.revision, before, await placeOf(draft, before), now);
  const parent = await placeOf(draft, before, id);
  if (parent !== current.parent) {
    await draft.setChildren(
      current.parent,
      (await draft.childrenOf(current.parent)).filter((c) => c !== id),
      now,
    );
  }
  const slug = uniqueSlug(before.slug, await draft.siblingSlugs(parent, id));
  await keepDocument(draft, source.revision, before);
  draft.putPage({ ...before, slug, parent, children: current.children });
  await placeAsBefore(draft, source.revision, before, parent, now);
  draft.mark(id, 'updated');
}

/**
 * `revert_page` with `block`: only the named top-level blocks of the page's document go back to
 * `source` — a block added since is removed, one deleted since comes back after the block that
 * preceded it there, one in both goes back to its old position. Block keys are derived from the
 * block's content, so a modified block is the old key deleted and a new key added.
 */
export async function revertBlocks(draft: RevisionDraft, source: RevertSource, id: string, keys: string[], at: string, now: string): Promise<void> {
  const before = await source.revision.page(id);
  const current = await draft.page(id);
  if (!current) throw bad(`${at}.page: no page "${id}" in this revision.`);
  if (!before) throw bad(`${at}.block: the page "${id}" is not in revision "${source.id}"; revert the whole page instead.`);
  const old = (await documentOf(source.revision, before))?.nodes ?? [];
  const nodes = [...((await documentOf(draft, current))?.nodes ?? [])];
  const keyOf = (n: DocumentNode) => (n as { key?: string }).key;
  for (const key of keys) {
    const was = old.findIndex((n) => keyOf(n) === key);
    const is = nodes.findIndex((n) => keyOf(n) === key);
    if (was < 0 && is < 0) throw bad(`${at}.block: no block "${key}" in the page here or in revision "${source.id}".`);
    if (is >= 0) nodes.splice(is, 1);
    if (was < 0) continue;
    // after the nearest earlier block of the old document that is still there, else first
    let place = 0;
    for (let j = was - 1; j >= 0; j -= 1) {
      const k = nodes.findIndex((n) => keyOf(n) === keyOf(old[j]));
      if (k >= 0) {
        place = k + 1;
        break;
      }
    }
    nodes.splice(place, 0, old[was]);
  }
  const next: PageNode = { ...current, updatedAt: now };
  if (nodes.length) next.document = draft.putDocument({ object: 'document', data: {}, ...((await documentOf(draft, current)) ?? {}), nodes } as Document);
  else delete next.document;
  draft.putPage(next);
  draft.mark(id, 'updated');
}

async function documentOf(from: { document(hash: string): Promise<Document | undefined> }, page: PageNode): Promise<Document | undefined> {
  return page.document ? from.document(page.document) : undefined;
}

/** The restored version may name a document the draft has never loaded: carry it, so the new revision stores it. */
async function keepDocument(draft: RevisionDraft, source: RevisionSource, page: PageNode): Promise<void> {
  if (!page.document) return;
  const document = await source.document(page.document);
  if (document) draft.documents.set(page.document, document);
}

/** Where the page goes back to: its old parent when that is still there (and not inside the page), else the top. */
async function placeOf(draft: RevisionDraft, before: PageNode, self?: string): Promise<string | null> {
  if (before.parent === null) return null;
  const parent = await draft.page(before.parent);
  if (!parent || parent.type === 'link') return null;
  if (self && (await draft.isWithin(before.parent, self))) return null;
  return before.parent;
}

/** Puts the page among its parent's children at the index it had in `source` (or last, when there are fewer now). */
async function placeAsBefore(draft: RevisionDraft, source: RevisionSource, before: PageNode, parent: string | null, now: string): Promise<void> {
  const oldSiblings = before.parent === null ? (await source.root()).children : ((await source.page(before.parent))?.children ?? []);
  const index = Math.max(0, oldSiblings.indexOf(before.id));
  const children = (await draft.childrenOf(parent)).filter((c) => c !== before.id);
  children.splice(Math.min(index, children.length), 0, before.id);
  await draft.setChildren(parent, children, now);
}

/** Brings back a deleted page and those of its old sub-pages that are gone as well (the others stay where they are now). */
async function restore(draft: RevisionDraft, source: RevisionSource, before: PageNode, parent: string | null, now: string): Promise<void> {
  const slug = uniqueSlug(before.slug, await draft.siblingSlugs(parent));
  await keepDocument(draft, source, before);
  const gone: PageNode[] = [];
  for (const child of before.children) {
    if (await draft.page(child)) continue;
    const old = await source.page(child);
    if (old) gone.push(old);
  }
  draft.putPage({ ...before, slug, parent, children: [] });
  await placeAsBefore(draft, source, before, parent, now);
  draft.mark(before.id, 'created');
  for (const child of gone) await restore(draft, source, child, before.id, now);
}
