import { ContentEvents as E } from '@bindery/content/client';
import { contentHash, FileNode, PageNode, ROOT_KEY, RevisionDraft, SpaceRecord, trieSet } from '@bindery/content/domain';
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
}

/** Thrown when the space's current revision moved away from the base while the change was computed. */
export class StaleBaseError extends DomainError {
  constructor() {
    super('conflict', 'The space changed while this change was being applied; apply it again on the new revision.');
  }
}

/**
 * Stores what a draft changed as a new revision: the changed records and the trie nodes above them
 * (everything else is shared with the base), then, in one transaction, the revision with its
 * `content.revision.created` event and — for a live edit — the compare-and-set of the space's
 * pointer. Records written before a failed compare-and-set are unreachable but harmless (content
 * addressed: a retry writes the same ones again for free).
 */
export async function writeRevision(deps: ContentDeps, space: SpaceRecord, base: StoredRevision, draft: RevisionDraft, spec: NewRevision): Promise<RevisionRecord> {
  const records: Array<[string, ContentObjectKind, unknown]> = [];
  const pageUpdates = new Map<string, string | null>();
  for (const [id, page] of draft.pages) {
    if (!page) {
      pageUpdates.set(id, null);
      continue;
    }
    const hash = contentHash(page satisfies PageNode);
    records.push([hash, 'page', page]);
    pageUpdates.set(id, hash);
  }
  if (draft.rootNode) {
    const hash = contentHash(draft.rootNode);
    records.push([hash, 'root', draft.rootNode]);
    pageUpdates.set(ROOT_KEY, hash);
  }
  for (const [hash, document] of draft.documents) records.push([hash, 'doc', document]);
  const fileUpdates = new Map<string, string | null>();
  for (const [id, file] of draft.files) {
    const hash = contentHash(file satisfies FileNode);
    records.push([hash, 'file', file]);
    fileUpdates.set(id, hash);
  }
  const pages = await trieSet(base.nodes, base.pagesRoot, pageUpdates);
  const files = await trieSet(base.nodes, base.filesRoot, fileUpdates);
  for (const [hash, node] of [...pages.created, ...files.created]) records.push([hash, 'trie', node]);
  await deps.objects.putMany(space._id, records);

  const changedPages = [...draft.touched].filter(([, what]) => what !== 'deleted').map(([id]) => id);
  const deletedPages = [...draft.touched].filter(([, what]) => what === 'deleted').map(([id]) => id);
  const revision: RevisionRecord = {
    _id: spec.id,
    spaceId: space._id,
    parents: [base.record._id],
    type: spec.type,
    createdAt: spec.now,
    pages: pages.root,
    files: files.root,
    reusableContents: base.record.reusableContents ?? [],
    variables: base.record.variables ?? {},
    changedPages,
    deletedPages,
    ...(spec.mergedFrom ? { mergedFrom: spec.mergedFrom } : {}),
  };
  const event = E.revisionCreated.create(
    SOURCE,
    space._id,
    {
      organizationId: space.organizationId,
      spaceId: space._id,
      revisionId: revision._id,
      parentRevisionId: base.record._id,
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
