import type { SafeFetch } from '@bindery/platform/outbound-http';
import { EmbedCache } from './embed-cache';
import type { EmbedLimits } from './embed-settings';

/** What embeds need besides content's own dependencies. */
export interface Embeds {
  limits: EmbedLimits;
  allowPrivate: boolean;
  cache: EmbedCache;
  /** the outbound guard; replaceable in tests only */
  fetch?: SafeFetch;
}

export function embedsWith(limits: EmbedLimits, allowPrivate: boolean): Embeds {
  return { limits, allowPrivate, cache: new EmbedCache(limits.cacheMs) };
}
