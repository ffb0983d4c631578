import { invalid, notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { contentRevisionsV1 as pb } from '@bindery/shared/contracts';
import { PageNode } from '@bindery/content/domain';
import type { ContentDeps } from '../content-deps';
import { spaceMessage } from '../messages';
import { LinkUsage, pageOfSorted, statsOf } from './link-index';
import { documentsOf, linksOfRevision, readableRevision, subtreeIds, wholeTree } from './revision-reads';
import { fileMessage, PageFormat, pageMessage, pageTreeMessages, reusableContentMessage, revisionMessage } from './revision-messages';
import type { StoredRevision } from './stored-revision';
import { dereferenced } from './page-document-reads';

const selector = (s: pb.RevisionSelector | undefined) => s ?? { spaceId: '', revisionId: '', metadata: true };

async function fileMessages(deps: ContentDeps, revision: StoredRevision) {
  return (await revision.files()).sort((a, b) => (a.id < b.id ? -1 : 1)).map((f) => fileMessage(f, deps.files.downloadUrlOf(revision.spaceId, f)));
}

async function treeMessages(revision: StoredRevision) {
  const tree = await wholeTree(revision);
  return pageTreeMessages(tree.root, tree.pages, await documentsOf(revision, tree.pages.values()));
}

/** The official Revision: every page with its document, every file. Readers of the space. */
export async function getRevision(deps: ContentDeps, caller: Caller, req: pb.RevisionSelector): Promise<pb.RevisionReply> {
  const { revision } = await readableRevision(deps, caller, req.spaceId, req.revisionId);
  const message = revisionMessage(revision.record, await treeMessages(revision), await fileMessages(deps, revision), req.metadata);
  return { revision: message, spaceId: req.spaceId, revisionId: revision.record._id };
}

export async function listPages(deps: ContentDeps, caller: Caller, req: pb.RevisionSelector): Promise<pb.PagesReply> {
  const { revision } = await readableRevision(deps, caller, req.spaceId, req.revisionId);
  return {
    pages: await treeMessages(revision),
    revisionId: revision.record._id,
    reusableContents: (revision.record.reusableContents ?? []).map(reusableContentMessage),
  };
}

/** One page by id or by path, with its document in the format asked and its sub-pages. */
export async function getPage(deps: ContentDeps, caller: Caller, req: pb.GetPageRequest): Promise<pb.PageReply> {
  const sel = selector(req.revision);
  const format: PageFormat = req.format === 'markdown' ? 'markdown' : 'document';
  const { revision } = await readableRevision(deps, caller, sel.spaceId, sel.revisionId);
  const tree = await wholeTree(revision);
  let id = req.pageId;
  if (!id) {
    const wanted = req.path.replace(/^\/+|\/+$/g, '');
    id = [...tree.paths].find(([, p]) => p === wanted)?.[0] ?? '';
  }
  const page = tree.pages.get(id);
  if (!page) throw notFound('Page');
  const ids = subtreeIds(tree, id);
  const documents = await documentsOf(
    revision,
    ids.map((i) => tree.pages.get(i)!),
  );
  const own = page.document ? documents.get(page.document) : undefined;
  const topDocument = own && req.dereferenceReusableContents ? await dereferenced(revision, own) : own;
  const build = (p: PageNode, top: boolean): pb.RevisionPage =>
    pageMessage(p, {
      path: tree.paths.get(p.id) ?? p.slug,
      document: top ? topDocument : p.document ? documents.get(p.document) : undefined,
      format: top ? format : 'document',
      pages: p.type === 'link' ? undefined : p.children.flatMap((c) => (tree.pages.has(c) ? [build(tree.pages.get(c)!, false)] : [])),
    });
  return { page: build(page, true), revisionId: revision.record._id, path: tree.paths.get(id) ?? page.slug };
}

export async function listFiles(deps: ContentDeps, caller: Caller, req: pb.ListFilesRequest): Promise<pb.FilesReply> {
  const sel = selector(req.revision);
  const { revision } = await readableRevision(deps, caller, sel.spaceId, sel.revisionId);
  const all = await fileMessages(deps, revision);
  const page = pageOfSorted(all, (f) => f.id, req.page);
  return { files: page.items, page: { count: page.count, nextPage: page.nextPage } };
}

export async function getFile(deps: ContentDeps, caller: Caller, req: pb.GetFileRequest): Promise<pb.FileReply> {
  const sel = selector(req.revision);
  const { revision } = await readableRevision(deps, caller, sel.spaceId, sel.revisionId);
  const file = await revision.file(req.fileId);
  if (!file) throw notFound('File');
  return { file: fileMessage(file, deps.files.downloadUrlOf(revision.spaceId, file)) };
}

/** The ContentLocation of a page (its `organization` and `space` as ids, expanded by the gateway). */
async function pageLocations(revision: StoredRevision, space: { organizationId: string; _id: string }, ids: string[]) {
  const tree = await wholeTree(revision);
  const pages = ids.map((id) => tree.pages.get(id)).filter((p): p is PageNode => !!p);
  const documents = await documentsOf(revision, pages);
  return new Map(
    pages.map((p): [string, pb.ContentLocation] => [
      p.id,
      {
        kind: 'page',
        organization: space.organizationId,
        space: space._id,
        page: pageMessage(p, { path: tree.paths.get(p.id) ?? p.slug, document: p.document ? documents.get(p.document) : undefined }),
      },
    ]),
  );
}

/** The pages of the revision that use a file. */
export async function listFileBacklinks(deps: ContentDeps, caller: Caller, req: pb.ListBacklinksRequest): Promise<pb.BacklinksReply> {
  const sel = selector(req.revision);
  const { space, role, revision } = await readableRevision(deps, caller, sel.spaceId, sel.revisionId);
  if (!(await revision.file(req.fileId))) throw notFound('File');
  const usage = (await linksOfRevision(revision, deps.appOrigins)).find((u) => u.target.kind === 'file' && u.target.file === req.fileId);
  const page = pageOfSorted(usage?.from.slice().sort() ?? [], (id) => id, req.page);
  const locations = await pageLocations(revision, space, page.items);
  return {
    items: page.items.flatMap((id) => locations.get(id) ?? []),
    page: { count: page.count, nextPage: page.nextPage },
    space: spaceMessage(space, role),
  };
}

/** The links of a revision (or of one of its pages), grouped by target, with their status and stats. */
export async function listLinks(deps: ContentDeps, caller: Caller, req: pb.ListLinksRequest): Promise<pb.LinksReply> {
  const sel = selector(req.revision);
  if (req.status && !['ok', 'broken', 'in-app'].includes(req.status)) throw invalid('status must be ok, broken or in-app.');
  const { space, role, revision } = await readableRevision(deps, caller, sel.spaceId, sel.revisionId);
  let usages = await linksOfRevision(revision, deps.appOrigins);
  if (req.pageId) {
    if (!(await wholeTree(revision)).pages.has(req.pageId)) throw notFound('Page');
    usages = usages.filter((u) => u.from.includes(req.pageId)).map((u) => ({ ...u, from: [req.pageId] }));
  }
  const stats = statsOf(usages);
  const listed = req.status ? usages.filter((u) => u.status === req.status) : usages;
  const page = pageOfSorted(listed, (u) => u.key, req.page);
  const needed = new Set<string>();
  for (const u of page.items) {
    u.from.forEach((id) => needed.add(id));
    if (u.target.kind === 'page' && u.status !== 'broken') needed.add(u.target.page);
  }
  const locations = await pageLocations(revision, space, [...needed]);
  const files = new Map((await revision.files()).map((f) => [f.id, f]));
  const targetOf = (u: LinkUsage): pb.ContentLocation | undefined => {
    if (u.status === 'broken') return undefined;
    if (u.target.kind === 'url') return { kind: 'url', organization: '', space: '', url: u.target.url };
    if (u.target.kind === 'page') {
      const location = locations.get(u.target.page);
      return location && u.target.anchor ? { ...location, anchor: u.target.anchor } : location;
    }
    const file = files.get(u.target.file)!;
    return { kind: 'file', organization: space.organizationId, space: space._id, file: fileMessage(file, deps.files.downloadUrlOf(space._id, file)) };
  };
  const items = page.items.map((u): pb.LinkUsage => ({ status: u.status, targetReference: targetOf(u), locationReferences: u.from.flatMap((id) => locations.get(id) ?? []) }));
  return {
    items,
    stats: { total: stats.total, broken: stats.broken.total },
    page: { count: page.count, nextPage: page.nextPage },
    space: spaceMessage(space, role),
  };
}
