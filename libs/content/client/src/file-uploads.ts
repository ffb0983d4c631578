import { ClientStreamingClientOf, grpcClientStreamingClient } from '@bindery/platform/grpc';
import { contentRevisionsV1 } from '@bindery/shared/contracts';

const UPLOADS = contentRevisionsV1.FileUploadsServiceService;

/**
 * A client of content's FileUploadsService (StageFile: a head, then the bytes in pieces). The deadline
 * covers a whole upload: pass one sized for the largest file, not a unary budget.
 */
export const connectContentUploads = (address: string, defaultDeadlineMs: number) => grpcClientStreamingClient(UPLOADS, address, defaultDeadlineMs);
export type ContentUploadsClient = ClientStreamingClientOf<typeof UPLOADS>;
