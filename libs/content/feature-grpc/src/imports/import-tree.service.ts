import { createHash } from 'node:crypto';
import type { RevisionRecord } from '@bindery/content/data-access';
import { ContentChange, FileNode, InsertFileItem } from '@bindery/content/domain';
import { invalid, isDomainError } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { isDuplicateKey } from '@bindery/platform/mongo';
import { contentRevisionsV1 as pb } from '@bindery/shared/contracts';
import { newId } from '@bindery/shared/ids';
import { ContentDeps } from '../content-deps';
import { applyIngestedChanges, editableSpace } from '../revisions/apply-changes.service';
import { storedRevision } from '../revisions/revision-reads';
import { checkReusableContents, reusableContentsReply } from './import-reusable-contents';

/** One entry of an imported tree (ImportTreeRequest.tree), checked. */
interface TreeEntry {
  source: string;
  type: 'document' | 'group' | 'link';
  /** link pages: where they lead (an absolute URL) */
  href?: string;
  /** the slug of the entry's file name, made unique among its siblings */
  slug?: string;
  /** hidden from the navigation unless the Markdown's front matter says otherwise (a file SUMMARY.md leaves out) */
  hidden?: boolean;
  /** an existing page of the space this entry updates */
  page?: string;
  /** the id a new page gets (chosen by the importer, so a retried import names the same pages) */
  id?: string;
  title?: string;
  markdown: string;
  children: TreeEntry[];
}

const MAX_ENTRIES = 20_000;
const MAX_DEPTH = 20;
const ID = /^[A-Za-z0-9_-]{8,64}$/;

function checkTree(tree: pb.ImportTreeEntry[]): TreeEntry[] {
  const sources = new Set<string>();
  const ids = new Set<string>();
  const check = (list: pb.ImportTreeEntry[], depth: number, at: string): TreeEntry[] => {
    if (depth > MAX_DEPTH) throw invalid(`${at}: the tree is deeper than ${MAX_DEPTH} levels.`);
    return list.map((e, i) => {
      const here = `${at}[${i}]`;
      if (!e.source || sources.has(e.source)) throw invalid(`${here}.source must be a unique path.`);
      sources.add(e.source);
      if (sources.size > MAX_ENTRIES) throw invalid(`the tree has more than ${MAX_ENTRIES} entries.`);
      const type = e.type === 'group' || e.type === 'link' ? e.type : 'document';
      if (type === 'link' && (e.href === undefined || !/^[a-z][a-z0-9+.-]*:/i.test(e.href) || e.href.length > 2048)) throw invalid(`${here}.href must be an absolute URL.`);
      if (e.slug !== undefined && !/^[^/?#\s]{1,100}$/.test(e.slug)) throw invalid(`${here}.slug must be a slug of at most 100 characters.`);
      for (const key of ['page', 'id'] as const) {
        if (e[key] !== undefined && !ID.test(e[key])) throw invalid(`${here}.${key} must be a page id.`);
      }
      if (e.id !== undefined && ids.has(e.id)) throw invalid(`${here}.id is used twice.`);
      if (e.id !== undefined) ids.add(e.id);
      if (e.title !== undefined && e.title.length > 200) throw invalid(`${here}.title must be at most 200 characters.`);
      return {
        source: e.source,
        type,
        ...(typeof e.page === 'string' ? { page: e.page } : {}),
        ...(typeof e.id === 'string' ? { id: e.id } : {}),
        ...(typeof e.title === 'string' && e.title.trim() ? { title: e.title } : {}),
        ...(type === 'link' ? { href: e.href as string } : {}),
        ...(typeof e.slug === 'string' ? { slug: e.slug } : {}),
        ...(typeof e.hidden === 'boolean' ? { hidden: e.hidden } : {}),
        markdown: e.markdown,
        children: check(e.children, depth + 1, `${here}.children`),
      };
    });
  };
  return check(tree, 0, 'tree');
}

function checkGit(g: pb.ImportCommit | undefined): RevisionRecord['git'] | undefined {
  if (!g) return undefined;
  if (!/^[0-9a-f]{40,64}$/.test(g.oid)) throw invalid('git.oid must be a commit id.');
  return {
    oid: g.oid,
    message: g.message.slice(0, 10_000),
    createdByService: false,
    ...(g.url !== undefined ? { url: g.url } : {}),
    ...(g.ref !== undefined ? { ref: g.ref } : {}),
  };
}

/** A file of an import left out, and why (ImportTreeReply.skipped_files). */
type SkippedFile = pb.SkippedFile;

const STAGED_GONE = 'its staged bytes are gone (expired, taken by another import, or never stored); stage it again';

/**
 * The files of an import: one already in the base revision with the same bytes (sha256) is reused, the
 * others are stored (inline `data`) or taken from staging (`staged_id`); a staged blob whose bytes the
 * space already holds is removed. A file that cannot be had (staged bytes gone, inline bytes refused) is
 * skipped with its reason, not the import. Answers the stored ones (to discard on failure), the file of
 * every path and the skipped ones.
 */
async function storeFiles(deps: ContentDeps, spaceId: string, existing: FileNode[], files: pb.ImportTreeFile[]) {
  const bySha = new Map(existing.map((f) => [f.sha256, f]));
  const stored = new Map<InsertFileItem, FileNode>();
  const ofPath = new Map<string, string>();
  const skipped: SkippedFile[] = [];
  const nameOf = (f: pb.ImportTreeFile) => f.name.slice(0, 256) || 'file';
  const staged = files.filter((f) => f.stagedId);
  const taken = await deps.files.takeStaged(
    spaceId,
    staged.map((f) => ({ stagedId: f.stagedId, name: nameOf(f), ...(f.contentType ? { contentType: f.contentType } : {}) })),
  );
  const duplicates: FileNode[] = [];
  try {
    for (const f of files) {
      const contentType = f.contentType || 'application/octet-stream';
      let node: FileNode | undefined;
      if (f.stagedId) {
        const fresh = taken.get(f.stagedId);
        if (!fresh) {
          skipped.push({ name: f.name, paths: f.paths, reason: STAGED_GONE });
          continue;
        }
        node = bySha.get(fresh.sha256);
        if (node) duplicates.push(fresh);
        else {
          node = fresh;
          stored.set({ name: fresh.name, base64: '', contentType }, fresh);
          bySha.set(fresh.sha256, fresh);
        }
      } else {
        const sha = createHash('sha256').update(f.data).digest('hex');
        node = bySha.get(sha);
        if (!node) {
          const item: InsertFileItem = { name: nameOf(f), base64: Buffer.from(f.data).toString('base64'), contentType };
          try {
            node = await deps.files.ingest(spaceId, item);
          } catch (err) {
            if (!isDomainError(err) || err.kind !== 'invalid') throw err;
            skipped.push({ name: f.name, paths: f.paths, reason: err.message });
            continue;
          }
          stored.set(item, node);
          bySha.set(sha, node);
        }
      }
      for (const p of f.paths) ofPath.set(p, node.id);
    }
    await deps.files.discard(spaceId, duplicates);
  } catch (err) {
    const mine = new Set([...stored.values()].map((n) => n.blobId));
    await deps.files.discard(spaceId, [...stored.values(), ...[...taken.values()].filter((n) => !mine.has(n.blobId))]);
    throw err;
  }
  return { stored, ofPath, skipped };
}

/**
 * The changes writing a tree over the base: entries in order, parents first (updates move kept pages
 * to their place), then the deletion of every page left out of the tree.
 */
async function treeChanges(entries: TreeEntry[], existing: Map<string, string>, childrenOf: (id: string | null) => Promise<string[]>) {
  const changes: ContentChange[] = [];
  const pageIds: string[] = [];
  const idOf = new Map<string, string>();
  const wanted = new Set<string>();
  const walk = (list: TreeEntry[], parent: string | null) =>
    list.forEach((e, at) => {
      const common = {
        document: { markdown: e.markdown },
        ...(e.title ? { title: e.title } : {}),
        ...(e.slug ? { preferredSlug: e.slug } : {}),
        ...(e.hidden !== undefined ? { hidden: e.hidden } : {}),
        ...(e.href ? { target: { kind: 'url' as const, url: e.href } } : {}),
        at,
        source: e.source,
      };
      const kept = e.page ?? e.id;
      // a page that changed kind (a file became a link, say) is a new page; the old one is swept below
      if (kept && existing.get(kept) === e.type) {
        changes.push({ operation: 'update_page', page: kept, ...common, into: parent });
        idOf.set(e.source, kept);
      } else {
        const id = e.id && !existing.has(e.id) ? e.id : newId();
        changes.push({ operation: 'insert_page', ...common, ...(parent ? { into: parent } : {}), ...(e.type !== 'document' ? { type: e.type } : {}) });
        pageIds.push(id);
        idOf.set(e.source, id);
      }
      wanted.add(idOf.get(e.source)!);
      walk(e.children, idOf.get(e.source)!);
    });
  walk(entries, null);
  // pages left out: the highest of each removed subtree (a kept page inside it has moved out first)
  const deletions: ContentChange[] = [];
  const sweep = async (parent: string | null): Promise<void> => {
    for (const child of await childrenOf(parent)) {
      if (!existing.has(child)) continue;
      if (wanted.has(child)) await sweep(child);
      else deletions.push({ operation: 'delete_page', page: child });
    }
  };
  await sweep(null);
  return { changes, deletions, pageIds, idOf };
}

/**
 * ImportTree: a Git import's whole tree and files as one revision, recording the commit. Editors and up
 * (a live import of a locked space is refused). With a `revision_key` the write is once: a retried
 * import answers the revision the first one wrote.
 */
export async function importTree(deps: ContentDeps, caller: Caller, req: pb.ImportTreeRequest): Promise<pb.ImportTreeReply> {
  const entries = checkTree(req.tree);
  const git = checkGit(req.git);
  const first = await editableSpace(deps, caller, req.spaceId, req.updateCurrent);
  const spaceId = first.space._id;
  const key = req.revisionKey || undefined;
  const base = await storedRevision(deps, first.space, first.space.revision);
  const existing = new Map([...(await base.allPages()).pages].map(([id, page]) => [id, page.type]));
  const reusableContents = checkReusableContents(req.reusableContents, base.record.reusableContents);
  const { stored, ofPath, skipped } = await storeFiles(deps, spaceId, await base.files(), req.files);
  // from here on the files taken go when anything fails (they are no longer staged: no sweep would find them)
  const discardOnFailure = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      await deps.files.discard(spaceId, [...stored.values()]);
      throw err;
    }
  };
  const plan = await discardOnFailure(async () => {
    const planned = await treeChanges(entries, existing, async (id) => (id === null ? (await base.root()).children : ((await base.page(id))?.children ?? [])));
    if (!planned.changes.length) throw invalid('tree must hold at least one page.');
    return planned;
  });
  const reply = (revision: string, parent: string, written?: RevisionRecord): pb.ImportTreeReply => ({
    revisionId: revision,
    parentRevisionId: parent,
    pages: Object.fromEntries(plan.idOf),
    files: Object.fromEntries(ofPath),
    skippedFiles: skipped,
    reusableContents: reusableContentsReply(reusableContents, written),
  });
  const written = key ? await discardOnFailure(() => deps.revisions.findByMergeKey(spaceId, key)) : null;
  if (written) {
    await deps.files.discard(spaceId, [...stored.values()]);
    return reply(written._id, written.parents[0] ?? '', written);
  }
  const changes: ContentChange[] = [...(stored.size ? [{ operation: 'insert_files' as const, files: [...stored.keys()] }] : []), ...plan.changes, ...plan.deletions];
  // applyIngestedChanges discards the files it was given when it fails
  try {
    const applied = await applyIngestedChanges(deps, caller, first, changes, stored, {
      baseRevisionId: base.record._id,
      updateCurrent: req.updateCurrent,
      revisionType: 'update',
      pageIds: plan.pageIds,
      importedFiles: ofPath,
      ...(key ? { revisionKey: key } : {}),
      ...(git ? { git } : {}),
      ...(reusableContents ? { reusableContents } : {}),
    });
    return reply(applied.revision._id, applied.parentRevisionId);
  } catch (err) {
    const other = key && isDuplicateKey(err) ? await deps.revisions.findByMergeKey(spaceId, key) : null;
    if (other) return reply(other._id, other.parents[0] ?? '', other);
    throw err;
  }
}
