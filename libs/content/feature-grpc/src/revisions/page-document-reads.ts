import { notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { contentRevisionsV1 as pb, documentToMessage, type JsonObject } from '@bindery/shared/contracts';
import type { Document } from '@bindery/shared/markdown';
import { dereferenceReusableContents, includedReusableContents, type PageNode } from '@bindery/content/domain';
import type { ContentDeps } from '../content-deps';
import { readableRevision, wholeTree, type ReadableRevision } from './revision-reads';
import { EMPTY_DOCUMENT } from './revision-messages';
import type { StoredRevision } from './stored-revision';

const selector = (s: pb.RevisionSelector | undefined) => s ?? { spaceId: '', revisionId: '', metadata: true };

/** A page of a revision the caller can read (404 for a page the revision does not hold). */
async function readablePage(deps: ContentDeps, caller: Caller, req: { revision?: pb.RevisionSelector; pageId: string }): Promise<ReadableRevision & { page: PageNode }> {
  const sel = selector(req.revision);
  const readable = await readableRevision(deps, caller, sel.spaceId, sel.revisionId);
  const page = (await wholeTree(readable.revision)).pages.get(req.pageId);
  if (!page) throw notFound('Page');
  return { ...readable, page };
}

/**
 * The documents of the reusable contents a document includes, and of those they include in turn
 * (each read once; a revision holds a few reusable contents).
 */
async function includedDocuments(revision: StoredRevision, document: Document): Promise<Map<string, Document>> {
  const contents = new Map((revision.record.reusableContents ?? []).map((r) => [r.id, r]));
  const documents = new Map<string, Document>();
  let wanted = [...includedReusableContents(document.nodes, revision.spaceId)];
  while (wanted.length) {
    const next = new Set<string>();
    for (const id of wanted) {
      if (documents.has(id) || !contents.has(id)) continue;
      const hash = contents.get(id)!.document;
      const read = (hash && (await revision.document(hash))) || EMPTY_DOCUMENT;
      documents.set(id, read);
      includedReusableContents(read.nodes, revision.spaceId, next);
    }
    wanted = [...next].filter((id) => !documents.has(id));
  }
  return documents;
}

/** The document with the reusable contents of the revision's space it includes replaced by their blocks. */
export async function dereferenced(revision: StoredRevision, document: Document): Promise<Document> {
  const documents = await includedDocuments(revision, document);
  return documents.size ? dereferenceReusableContents(document, revision.spaceId, (id) => documents.get(id)) : document;
}

/**
 * GetPageDocument: the document of a document page (an empty one when it has none); a group or a
 * link has no document (404). Readers of the space and site tokens of it.
 */
export async function getPageDocument(deps: ContentDeps, caller: Caller, req: pb.GetPageDocumentRequest): Promise<pb.PageDocumentReply> {
  const { revision, page } = await readablePage(deps, caller, req);
  if (page.type !== 'document') throw notFound('Page document');
  let document = (page.document && (await revision.document(page.document))) || EMPTY_DOCUMENT;
  if (req.dereferenceReusableContents) document = await dereferenced(revision, document);
  return { document: documentToMessage(document as unknown as JsonObject), revisionId: revision.record._id };
}

/**
 * GetPageMetaLinks: the page's canonical and alternate links (0.202.0's RevisionPageMetaLinks). No
 * page here names a canonical URL or alternates, so the answer holds none: a renderer then uses the
 * page's own URL.
 */
export async function getPageMetaLinks(deps: ContentDeps, caller: Caller, req: pb.GetPageMetaLinksRequest): Promise<pb.PageMetaLinksReply> {
  const { revision } = await readablePage(deps, caller, req);
  return { alternates: [], revisionId: revision.record._id };
}
