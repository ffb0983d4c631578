import { notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { contentRevisionsV1 as pb, documentToMessage, type JsonObject } from '@bindery/shared/contracts';
import type { ContentDeps } from '../content-deps';
import { readableRevision } from './revision-reads';
import { EMPTY_DOCUMENT, reusableContentMessage } from './revision-messages';
import { dereferenced } from './page-document-reads';

/**
 * GetReusableContent: a reusable content of a revision (the current one by default) with its
 * document. Readers of the space; a space the caller cannot see, or a reusable content the revision
 * does not hold, is not found.
 */
export async function getReusableContent(deps: ContentDeps, caller: Caller, req: pb.GetReusableContentRequest): Promise<pb.ReusableContentReply> {
  const sel = req.revision ?? { spaceId: '', revisionId: '', metadata: true };
  const { revision } = await readableRevision(deps, caller, sel.spaceId, sel.revisionId);
  const content = (revision.record.reusableContents ?? []).find((r) => r.id === req.reusableContentId);
  if (!content) throw notFound('Reusable content');
  const stored = (content.document && (await revision.document(content.document))) || EMPTY_DOCUMENT;
  const document = req.dereferenceReusableContents ? await dereferenced(revision, stored) : stored;
  return { reusableContent: reusableContentMessage(content), document: documentToMessage(document as unknown as JsonObject), revisionId: revision.record._id };
}
