import { invalid } from '@bindery/platform/errors';
import { GrpcRegistration, grpcClientStreamingService } from '@bindery/platform/grpc';
import { contentRevisionsV1 as pb } from '@bindery/shared/contracts';
import type { ContentDeps } from '../content-deps';
import { editableSpace } from '../revisions/apply-changes.service';

/** The data of the messages after the head; a second head is refused. */
async function* dataOf(rest: AsyncIterable<pb.StageFileChunk>): AsyncGenerator<Uint8Array> {
  for await (const message of rest) {
    if (message.head) throw invalid('Only the first message of StageFile may be a head.');
    if (message.data?.length) yield message.data;
  }
}

/**
 * FileUploadsService: a file's bytes sent in pieces (one head {space, name}, then data chunks) stored
 * as a staged blob of the space, for an ImportTree to name. Editors and up, as ImportTree (a locked
 * space is refused by the import itself, not here: staging changes no revision). The bytes go to the
 * blob store one piece at a time (the next message is read once the store took the previous one), and
 * past CONTENT_FILE_MAX_BYTES the upload stops with a refusal and nothing stored.
 */
export function fileUploadsGrpc(deps: ContentDeps): GrpcRegistration {
  return grpcClientStreamingService(pb.FileUploadsServiceService, {
    async stageFile(first, rest, { caller }) {
      const head = first.head;
      if (!head) throw invalid('The first message of StageFile must be its head.');
      const { space } = await editableSpace(deps, caller, head.spaceId, false);
      const staged = await deps.files.stage(space._id, head.name.slice(0, 256) || 'file', dataOf(rest));
      return { stagedId: staged.stagedId, size: staged.size, sha256: staged.sha256 };
    },
  });
}
