import { ContentEvents as E } from '@bindery/content/client';
import type { Document } from '@bindery/shared/markdown';
import { contentHash, FileNode, PageNode, ROOT_KEY, RevisionDraft, RootNode, SpaceRecord, trieSet } from '@bindery/content/domain';
import type { ContentObjectKind, RevisionRecord } from '@bindery/content/data-access';
import { DomainError } from '@bindery/platform/errors';
import { ContentDeps, SOURCE } from '../content-deps';
import { StoredRevision } from './stored-revision';

export interface NewRevision {
  id: string;
  type: string;
  now: string;
  mergedFrom?: string;
  /** move the space's current revision from the base to this one, by compare-and-set */
  updateCurrent: boolean;
  /** the revision's parents, first the one it is measured against (default: the base alone) */
  parents?: string[];
  /** a merge's idempotency key: a second revision of the space with it is refused by a unique index */
  mergeKey?: string;
  /** the commit a Git import's revision records */
  git?: RevisionRecord['git'];
  /** the revision's reusable contents (default: the base's) */
  reusableContents?: RevisionRecord['reusableContents'];
}

/** Thrown when the space's current revision moved away from the base while the change was computed. */
export class StaleBaseError extends DomainError {
  constructor() {
    super('conflict', 'The space changed while this change was being applied; apply it again on the new revision.');
  }
}

/** What a new revision changes in its base's page and file maps: records, or null for a removed key. */
export interface RevisionChanges {
  pages: ReadonlyMap<string, PageNode | null>;
  /** the top-level order, when it changed */
  root?: RootNode;
  /** documents the changed pages reference that may not be stored yet */
  documents: ReadonlyMap<string, Document>;
  files: ReadonlyMap<string, FileNode | null>;
}

/** A new revision's content: its map roots and what it changed relative to its first parent. */
export interface RevisionContent {
  pages: string;
  files: string;
  changedPages: string[];
  deletedPages: string[];
}

/**
 * Stores the records a revision on top of `base` needs: the changed pages, documents and files, and the
 * trie nodes above them (everything else is shared with the base). Answers the new map roots.
 */
export async function storeChanges(deps: ContentDeps, space: SpaceRecord, base: StoredRevision, changes: RevisionChanges): Promise<{ pages: string; files: string }> {
  const records: Array<[string, ContentObjectKind, unknown]> = [];
  const pageUpdates = new Map<string, string | null>();
  for (const [id, page] of changes.pages) {
    if (!page) {
      pageUpdates.set(id, null);
      continue;
    }
    const hash = contentHash(page satisfies PageNode);
    records.push([hash, 'page', page]);
    pageUpdates.set(id, hash);
  }
  if (changes.root) {
    const hash = contentHash(changes.root);
    records.push([hash, 'root', changes.root]);
    pageUpdates.set(ROOT_KEY, hash);
  }
  for (const [hash, document] of changes.documents) records.push([hash, 'doc', document]);
  const fileUpdates = new Map<string, string | null>();
  for (const [id, file] of changes.files) {
    if (!file) {
      fileUpdates.set(id, null);
      continue;
    }
    const hash = contentHash(file satisfies FileNode);
    records.push([hash, 'file', file]);
    fileUpdates.set(id, hash);
  }
  const pages = await trieSet(base.nodes, base.pagesRoot, pageUpdates);
  const files = await trieSet(base.nodes, base.filesRoot, fileUpdates);
  for (const [hash, node] of [...pages.created, ...files.created]) records.push([hash, 'trie', node]);
  await deps.objects.putMany(space._id, records);
  return { pages: pages.root, files: files.root };
}

/**
 * Stores what a draft changed as a new revision: the changed records and the trie nodes above them
 * (everything else is shared with the base), then, in one transaction, the revision with its
 * `content.revision.created` event and — for a live edit — the compare-and-set of the space's
 * pointer. Records written before a failed compare-and-set are unreachable but harmless (content
 * addressed: a retry writes the same ones again for free).
 */
export async function writeRevision(deps: ContentDeps, space: SpaceRecord, base: StoredRevision, draft: RevisionDraft, spec: NewRevision): Promise<RevisionRecord> {
  const roots = await storeChanges(deps, space, base, { pages: draft.pages, root: draft.rootNode, documents: draft.documents, files: draft.files });
  const changedPages = [...draft.touched].filter(([, what]) => what !== 'deleted').map(([id]) => id);
  const deletedPages = [...draft.touched].filter(([, what]) => what === 'deleted').map(([id]) => id);
  return insertRevision(deps, space, base, { ...roots, changedPages, deletedPages }, spec);
}

/**
 * In one transaction: the revision record (content stored already) with its `content.revision.created`
 * event and, with `updateCurrent`, the compare-and-set of the space's pointer from `base` (StaleBaseError
 * when another writer moved it). A duplicate `mergeKey` fails the insert with MongoDB's duplicate-key error.
 */
export async function insertRevision(deps: ContentDeps, space: SpaceRecord, base: StoredRevision, content: RevisionContent, spec: NewRevision): Promise<RevisionRecord> {
  const { changedPages, deletedPages } = content;
  const revision: RevisionRecord = {
    _id: spec.id,
    spaceId: space._id,
    parents: spec.parents ?? [base.record._id],
    type: spec.type,
    createdAt: spec.now,
    pages: content.pages,
    files: content.files,
    reusableContents: spec.reusableContents ?? base.record.reusableContents ?? [],
    variables: base.record.variables ?? {},
    changedPages,
    deletedPages,
    ...(spec.mergedFrom ? { mergedFrom: spec.mergedFrom } : {}),
    ...(spec.mergeKey ? { mergeKey: spec.mergeKey } : {}),
    ...(spec.git ? { git: spec.git } : {}),
  };
  const event = E.revisionCreated.create(
    SOURCE,
    space._id,
    {
      organizationId: space.organizationId,
      spaceId: space._id,
      revisionId: revision._id,
      parentRevisionId: revision.parents[0] ?? base.record._id,
      changedPages,
      deletedPages,
      isCurrent: spec.updateCurrent,
      type: spec.type,
    },
    space.organizationId,
  );
  await deps.transaction(async (session) => {
    await deps.revisions.insert(revision, session, [event]);
    if (spec.updateCurrent && !(await deps.spaces.moveRevision(space.organizationId, space._id, base.record._id, revision._id, spec.now, session))) throw new StaleBaseError();
  });
  return revision;
}
