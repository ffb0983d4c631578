import type { Readable } from 'node:stream';
import type { FileNode, InsertFileItem } from '@bindery/content/domain';

/** Where a space's file bytes go and how they are fetched back (files/). */
export interface ContentFiles {
  /** Stores one `insert_files` item (fetching a url through the outbound guard) and answers its record. */
  ingest(spaceId: string, item: InsertFileItem): Promise<FileNode>;
  /** Removes the bytes of files no revision refers to (a batch that failed after storing them). */
  discard(spaceId: string, files: FileNode[]): Promise<void>;
  /** Copies a file's bytes to another space (duplicate), answering the new blob id. */
  copy(fromSpaceId: string, file: FileNode, toSpaceId: string): Promise<string>;
  removeOfSpace(spaceId: string): Promise<void>;
  /**
   * Stores bytes sent in pieces as a staged blob of the space (at most CONTENT_FILE_MAX_BYTES), which
   * an import takes with takeStaged or the sweep removes after CONTENT_STAGED_FILE_TTL_MS.
   */
  stage(spaceId: string, name: string, bytes: AsyncIterable<Uint8Array>): Promise<{ stagedId: string; size: number; sha256: string }>;
  /**
   * Takes staged blobs for good and answers the record of each taken (typed and measured as an
   * ingested file is); the ids absent from the answer were not staged, or expired.
   */
  takeStaged(spaceId: string, files: readonly { stagedId: string; name: string; contentType?: string }[]): Promise<Map<string, FileNode>>;
  /** Removes the staged blobs nobody took in time; answers how many. */
  sweepStaged(): Promise<number>;
  /** The signed, expiring download path of a file, relative to the gateway's public address. */
  downloadUrlOf(spaceId: string, file: FileNode): string;
}

/** A download being served: what the gateway needs before the first byte, then the bytes. */
export interface OpenedDownload {
  head: { name: string; contentType: string; size: number };
  stream: Readable;
}

export interface FileDownloads {
  /**
   * The file a download token grants. An invalid, tampered or expired token and a file that is gone
   * all answer the same 'not_found': whoever holds a bad token learns nothing from the answer.
   */
  openDownload(token: string): Promise<OpenedDownload>;
}
