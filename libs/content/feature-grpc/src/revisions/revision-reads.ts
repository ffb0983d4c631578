import { notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import type { Document } from '@bindery/shared/markdown';
import type { PageNode, RootNode, SpaceRecord } from '@bindery/content/domain';
import type { RoleOrGuest } from '@bindery/shared/roles';
import type { ContentDeps } from '../content-deps';
import { visibleSpace } from '../space-visibility';
import { StoredRevision } from './stored-revision';
import { linkIndex, LinkUsage } from './link-index';

export interface ReadableRevision {
  space: SpaceRecord;
  role: RoleOrGuest;
  revision: StoredRevision;
}

/**
 * A revision of a space the caller can read: the current one, or `revisionId` of that space (a
 * revision of another space, or of a space the caller cannot see, is not found).
 */
export async function readableRevision(deps: ContentDeps, caller: Caller, spaceId: string, revisionId?: string): Promise<ReadableRevision> {
  const { space, role } = await visibleSpace(deps, caller, spaceId);
  const revision = await storedRevision(deps, space, revisionId || space.revision);
  return { space, role, revision };
}

export async function storedRevision(deps: ContentDeps, space: SpaceRecord, revisionId: string): Promise<StoredRevision> {
  const record = await deps.revisions.get(space._id, revisionId);
  if (!record) throw notFound('Revision');
  return new StoredRevision(deps.objects, space._id, record);
}

interface WholeTree {
  pages: Map<string, PageNode>;
  root: RootNode;
  paths: Map<string, string>;
  links?: LinkUsage[];
}

/** Whole-revision reads are cached by revision id: a revision never changes once written. */
const trees = new Map<string, Promise<WholeTree>>();
const TREES_CACHED = 32;

export function wholeTree(revision: StoredRevision): Promise<WholeTree> {
  const key = `${revision.spaceId}:${revision.record._id}`;
  let tree = trees.get(key);
  if (!tree) {
    tree = (async () => {
      const { pages, root } = await revision.allPages();
      const paths = new Map<string, string>();
      const walk = (ids: string[], prefix: string) => {
        for (const id of ids) {
          const page = pages.get(id);
          if (!page) continue;
          const path = prefix ? `${prefix}/${page.slug}` : page.slug;
          paths.set(id, path);
          walk(page.children, path);
        }
      };
      walk(root.children, '');
      return { pages, root, paths };
    })();
    tree.catch(() => trees.delete(key));
    trees.set(key, tree);
    if (trees.size > TREES_CACHED) trees.delete(trees.keys().next().value as string);
  }
  return tree;
}

export async function linksOfRevision(revision: StoredRevision, appOrigins: readonly string[]): Promise<LinkUsage[]> {
  const tree = await wholeTree(revision);
  if (!tree.links) {
    const files = new Set((await revision.files()).map((f) => f.id));
    tree.links = linkIndex(tree.pages, files, appOrigins);
  }
  return tree.links;
}

/** The documents of these pages (document pages with content), by hash. */
export async function documentsOf(revision: StoredRevision, pages: Iterable<PageNode>): Promise<Map<string, Document>> {
  const hashes = [...pages].flatMap((p) => (p.document ? [p.document] : []));
  return revision.documents(hashes);
}

/** The ids of a page and everything under it. */
export function subtreeIds(tree: WholeTree, id: string): string[] {
  const out: string[] = [];
  const walk = (pid: string) => {
    const page = tree.pages.get(pid);
    if (!page) return;
    out.push(pid);
    for (const c of page.children) walk(c);
  };
  walk(id);
  return out;
}
