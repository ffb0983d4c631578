import { createHmac, randomBytes } from 'node:crypto';
import { notFound } from '@bindery/platform/errors';
import type { Db } from '@bindery/platform/mongo';
import { outboundPolicyFromEnv, SafeFetch } from '@bindery/platform/outbound-http';
import { logger } from '@bindery/platform/telemetry';
import { BlobStore, GridFsBlobStore } from '@bindery/content/data-access';
import { DownloadTokens, FileNode } from '@bindery/content/domain';
import type { ContentFiles, FileDownloads } from './file-ports';
import { FileConfig } from './file-settings';
import { fileOfBlob, ingestFile, stageFile } from './file-ingest';

export type ContentFilesWithDownloads = ContentFiles & FileDownloads;

export interface FileStorageOptions {
  /** the blob store; GridFS in the service's database by default */
  store?: BlobStore;
  /** the outbound guard; replaceable in tests only */
  fetch?: SafeFetch;
  clock?: () => number;
}

/**
 * Content's files: storage in GridFS, ingestion, and signed download URLs. Built once at start from
 * the service's settings (FILE_SETTINGS); fails the start on an invalid outbound policy.
 */
export function contentFiles(db: Db, config: FileConfig & { BINDERY_INTERNAL_SECRET?: string }, options: FileStorageOptions = {}): ContentFilesWithDownloads {
  const store = options.store ?? new GridFsBlobStore(db);
  const { allowPrivate } = outboundPolicyFromEnv({ BINDERY_OUTBOUND_ALLOW_PRIVATE: config.BINDERY_OUTBOUND_ALLOW_PRIVATE });
  // Without its own secret, the key is derived from the internal secret every process already shares.
  let secret =
    config.CONTENT_DOWNLOAD_SECRET ?? (config.BINDERY_INTERNAL_SECRET && createHmac('sha256', config.BINDERY_INTERNAL_SECRET).update('content download URLs').digest('base64url'));
  if (!secret) {
    logger.warn(
      'neither CONTENT_DOWNLOAD_SECRET nor BINDERY_INTERNAL_SECRET is set: download URLs are signed with a random per-process secret; with more than one replica, set it (the same value everywhere)',
    );
    secret = randomBytes(32).toString('base64url');
  }
  const tokens = new DownloadTokens(secret, config.CONTENT_DOWNLOAD_TTL_MS, options.clock);
  const now = options.clock ?? Date.now;
  const ingestOptions = { maxBytes: config.CONTENT_FILE_MAX_BYTES, fetchTimeoutMs: config.CONTENT_FILE_FETCH_TIMEOUT_MS, allowPrivate, fetch: options.fetch };
  return {
    ingest: (spaceId, item) => ingestFile(store, spaceId, item, ingestOptions),
    discard: (spaceId, files) =>
      store.remove(
        spaceId,
        files.map((f) => f.blobId),
      ),
    async stage(spaceId, name, bytes) {
      const stored = await stageFile(store, spaceId, name, bytes, config.CONTENT_FILE_MAX_BYTES, new Date(now() + config.CONTENT_STAGED_FILE_TTL_MS));
      return { stagedId: stored.blobId, size: stored.size, sha256: stored.sha256 };
    },
    async takeStaged(spaceId, files) {
      const taken = await store.takeStaged(
        spaceId,
        files.map((f) => f.stagedId),
        new Date(now()),
      );
      const out = new Map<string, FileNode>();
      try {
        for (const f of files) {
          const stored = taken.get(f.stagedId);
          if (stored) out.set(f.stagedId, await fileOfBlob(store, spaceId, stored, f.name, { given: f.contentType }));
        }
      } catch (err) {
        await store.remove(spaceId, [...taken.keys()]);
        throw err;
      }
      return out;
    },
    sweepStaged: () => store.removeExpiredStaged(new Date(now())),
    copy: (fromSpaceId, file, toSpaceId) => store.copy(fromSpaceId, file.blobId, toSpaceId),
    removeOfSpace: (spaceId) => store.removeOfSpace(spaceId),
    downloadUrlOf: (spaceId, file) => {
      const token = tokens.sign({ spaceId, blobId: file.blobId, name: file.name, contentType: file.contentType });
      return `downloads/${token}/${encodeURIComponent(file.name)}`;
    },
    async openDownload(token) {
      const grant = tokens.verify(token);
      if (!grant) throw notFound('File');
      const { size, stream } = await store.open(grant.spaceId, grant.blobId);
      return { head: { name: grant.name, contentType: grant.contentType, size }, stream };
    },
  };
}
