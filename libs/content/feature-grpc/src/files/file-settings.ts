import type { Config, Schema } from '@bindery/platform/config';

/**
 * Content's settings for files; spread into the service descriptor's `settings` (documented in
 * docs/configuration.md and docs/files.md).
 */
export const FILE_SETTINGS = {
  /** the largest file an upload may store (default 100 MB) */
  CONTENT_FILE_MAX_BYTES: { kind: 'int', default: 100 * 1024 * 1024, min: 1, max: 1024 * 1024 * 1024 * 1024 },
  /**
   * how long a staged file (FileUploadsService.StageFile, a Git import's files) waits for the import
   * that takes it before it is removed (default 6 hours; longer than any import run)
   */
  CONTENT_STAGED_FILE_TTL_MS: { kind: 'int', default: 21_600_000, min: 1000, max: 7 * 24 * 3_600_000 },
  /** the budget of fetching one file from a url, body included (default 5 minutes) */
  CONTENT_FILE_FETCH_TIMEOUT_MS: { kind: 'int', default: 300_000, min: 1000, max: 3_600_000 },
  /**
   * signs download URLs; every replica needs the same value (unset: derived from
   * BINDERY_INTERNAL_SECRET; with neither, a random one per process, and URLs made by one replica
   * fail on another)
   */
  CONTENT_DOWNLOAD_SECRET: { kind: 'string', optional: true, secret: true, min: 32 },
  /** how long a download URL stays valid (default 1 hour) */
  CONTENT_DOWNLOAD_TTL_MS: { kind: 'int', default: 3_600_000, min: 1000, max: 7 * 24 * 3_600_000 },
  /** "true" lets file urls reach loopback and private addresses (tests, closed networks); read by outboundPolicyFromEnv */
  BINDERY_OUTBOUND_ALLOW_PRIVATE: { kind: 'string', optional: true },
} satisfies Schema;

export type FileConfig = Config<typeof FILE_SETTINGS>;
