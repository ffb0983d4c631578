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
