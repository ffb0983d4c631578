import type { SafeFetch } from '@bindery/platform/outbound-http';
import type { RunStore } from '@bindery/platform/runs';
import type { CrawlLimits } from './import-settings';

/** What a website import needs besides content's own dependencies. */
export interface WebsiteImports {
  /** the runs imports are (kind WEBSITE_IMPORT_RUN) */
  runs: RunStore;
  limits: CrawlLimits;
  allowPrivate: boolean;
  /** the outbound guard; replaceable in tests only */
  fetch?: SafeFetch;
}
