import { GrpcRegistration, grpcStreamingService } from '@bindery/platform/grpc';
import { contentRevisionsV1 as pb } from '@bindery/shared/contracts';
import type { FileDownloads } from './file-ports';

/**
 * FileDownloadsService: a file's bytes for a download token — one head (name, type, size), then the
 * stored chunks (≤ 255 KiB each) in order. The token is the whole authorization, so the method is
 * public (no caller). Backpressure: a chunk is read from storage only when the previous one was
 * taken by the transport; a cancelled call closes the storage stream.
 */
export function fileDownloadsGrpc(files: FileDownloads): GrpcRegistration {
  return grpcStreamingService(
    pb.FileDownloadsServiceService,
    {
      async *downloadFile(req, ctx) {
        const { head, stream } = await files.openDownload(req.token);
        try {
          yield { head };
          for await (const data of stream as AsyncIterable<Buffer>) {
            if (ctx.signal.aborted) return;
            yield { data };
          }
        } finally {
          stream.destroy();
        }
      },
    },
    { public: ['downloadFile'] },
  );
}
