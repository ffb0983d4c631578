import type { Config, Schema } from '@bindery/platform/config';

/** Content's settings for website imports; spread into the service descriptor's `settings` (docs/configuration.md). */
export const IMPORT_SETTINGS = {
  /** the most pages one website import stores (default 500) */
  CONTENT_IMPORT_MAX_PAGES: { kind: 'int', default: 500, min: 1, max: 10_000 },
  /** how many links deep from the start URL a website import follows (default 10) */
  CONTENT_IMPORT_MAX_DEPTH: { kind: 'int', default: 10, min: 0, max: 100 },
  /** the most bytes (pages and images) one website import downloads (default 200 MB) */
  CONTENT_IMPORT_MAX_BYTES: { kind: 'int', default: 200 * 1024 * 1024, min: 1024, max: 10 * 1024 * 1024 * 1024 },
  /** the budget of fetching one page or image, body included (default 15 s) */
  CONTENT_IMPORT_FETCH_TIMEOUT_MS: { kind: 'int', default: 15_000, min: 100, max: 600_000 },
} satisfies Schema;

export type ImportConfig = Config<typeof IMPORT_SETTINGS>;

export interface CrawlLimits {
  maxPages: number;
  maxDepth: number;
  maxBytes: number;
  fetchTimeoutMs: number;
}

export const limitsOf = (config: ImportConfig): CrawlLimits => ({
  maxPages: config.CONTENT_IMPORT_MAX_PAGES,
  maxDepth: config.CONTENT_IMPORT_MAX_DEPTH,
  maxBytes: config.CONTENT_IMPORT_MAX_BYTES,
  fetchTimeoutMs: config.CONTENT_IMPORT_FETCH_TIMEOUT_MS,
});
