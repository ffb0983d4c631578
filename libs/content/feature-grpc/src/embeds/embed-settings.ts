import type { Config, Schema } from '@bindery/platform/config';

/** Content's settings for embeds of external URLs; spread into the service descriptor's `settings` (docs/configuration.md). */
export const EMBED_SETTINGS = {
  /** the budget of one embed: the page and its oEmbed answer, redirects and bodies included (default 5 s) */
  CONTENT_EMBED_TIMEOUT_MS: { kind: 'int', default: 5000, min: 100, max: 60_000 },
  /** the most bytes read of an embedded page and its oEmbed answer together; a longer page is read up to here (default 512 KiB) */
  CONTENT_EMBED_MAX_BYTES: { kind: 'int', default: 512 * 1024, min: 1024, max: 16 * 1024 * 1024 },
  /** how long an embed is remembered by URL (a replica's memory); a URL that answered nothing usable, a minute at most (default 1 h) */
  CONTENT_EMBED_CACHE_MS: { kind: 'int', default: 3_600_000, min: 0, max: 86_400_000 },
} satisfies Schema;

export type EmbedConfig = Config<typeof EMBED_SETTINGS>;

export interface EmbedLimits {
  timeoutMs: number;
  maxBytes: number;
  cacheMs: number;
}

export const embedLimitsOf = (config: EmbedConfig): EmbedLimits => ({
  timeoutMs: config.CONTENT_EMBED_TIMEOUT_MS,
  maxBytes: config.CONTENT_EMBED_MAX_BYTES,
  cacheMs: config.CONTENT_EMBED_CACHE_MS,
});
