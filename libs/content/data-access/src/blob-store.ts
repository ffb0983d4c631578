import type { Readable } from 'node:stream';
import { DomainError } from '@bindery/platform/errors';

/**
 * Where the bytes of a space's files live. Every operation names the space: a blob of another space
 * is as absent as one that never existed. Implementations stream both ways (a file is never held in
 * memory whole) and must leave nothing behind from an upload that failed.
 *
 * GridFS (gridfs-blob-store.ts) is the implementation shipped; an object store (S3 and alike) would
 * implement the same seven operations — see docs/files.md.
 */
export interface BlobStore {
  /**
   * Stores the bytes of `source` as a new blob of the space. Refuses with BlobTooLargeError as soon
   * as more than `maxBytes` arrive; on that or any other failure nothing of the blob remains.
   */
  put(spaceId: string, source: AsyncIterable<Uint8Array>, options: PutOptions): Promise<StoredBlob>;
  /** The blob's size and its bytes as a stream; a DomainError 'not_found' when absent or of another space. */
  open(spaceId: string, blobId: string): Promise<OpenedBlob>;
  /** Copies a blob to another space (duplicating a space), answering the copy's id. */
  copy(fromSpaceId: string, blobId: string, toSpaceId: string): Promise<string>;
  /** Removes blobs of the space; ids that are absent or of another space are ignored. */
  remove(spaceId: string, blobIds: readonly string[]): Promise<void>;
  /** Removes every blob of the space (purge); safe to repeat after a failure. */
  removeOfSpace(spaceId: string): Promise<void>;
  /**
   * Takes staged blobs of the space (put with `stagedUntil`) for good: those still staged and not
   * expired at `now` stop being staged and are answered with their record; the others (absent, of
   * another space, already taken, expired) are left out.
   */
  takeStaged(spaceId: string, blobIds: readonly string[], now: Date): Promise<Map<string, StoredBlob>>;
  /** Removes staged blobs whose `stagedUntil` is past (nobody took them); answers how many. */
  removeExpiredStaged(now: Date): Promise<number>;
}

export interface PutOptions {
  maxBytes: number;
  /** kept with the blob for operators looking at storage; never used to find it */
  filename: string;
  /** a staged blob: removed by removeExpiredStaged after this time unless takeStaged took it */
  stagedUntil?: Date;
}

export interface StoredBlob {
  blobId: string;
  size: number;
  /** hex SHA-256 of the bytes */
  sha256: string;
  /** the first BLOB_HEAD_BYTES bytes (fewer for a smaller blob): enough to sniff a type and read image dimensions */
  head: Buffer;
}

export interface OpenedBlob {
  size: number;
  stream: Readable;
}

/** How much of a blob's beginning `put` hands back for sniffing. */
export const BLOB_HEAD_BYTES = 64 * 1024;

/** The size of the pieces blobs are stored and streamed in (GridFS's default, under gRPC's message limit). */
export const BLOB_CHUNK_BYTES = 255 * 1024;

/** More than `maxBytes` arrived: the upload was aborted and its partial data removed. */
export class BlobTooLargeError extends DomainError {
  constructor(readonly maxBytes: number) {
    super('invalid', `The file is larger than ${maxBytes} bytes.`);
    this.name = 'BlobTooLargeError';
  }
}
