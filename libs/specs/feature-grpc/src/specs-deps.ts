import type { OrgAccessProjection } from '@bindery/identity/projection';
import type { SafeFetch } from '@bindery/platform/outbound-http';
import { Db, Transaction } from '@bindery/platform/mongo';
import type { RunStore } from '@bindery/platform/runs';
import type { SpecsRepository, TranslationSettingsRepository, VersionsRepository } from '@bindery/specs/data-access';

/** Limits of processing one spec (docs/configuration.md). */
export interface ProcessingLimits {
  /** bytes every file of one spec may take together, the entry included */
  maxBytes: number;
  /** files one spec may consist of, the entry included */
  maxFiles: number;
  /** budget of one file's fetch, redirects and body included */
  fetchTimeoutMs: number;
  /** loopback and private addresses allowed (BINDERY_OUTBOUND_ALLOW_PRIVATE=true) */
  allowPrivate: boolean;
}

/** What specs' use cases work with; built once at start (specs-server.ts). */
export interface SpecsDeps {
  db: Db;
  specs: SpecsRepository;
  versions: VersionsRepository;
  translations: TranslationSettingsRepository;
  /** the organization roles, from identity's events (decision 0004: what identity acknowledged holds at once) */
  access: OrgAccessProjection;
  runs: RunStore;
  clock: () => number;
  /** one multi-document transaction, retried on transient conflicts; wakes the relay after the commit */
  transaction: Transaction;
  processing: ProcessingLimits;
  /** the outbound guard; replaceable in tests only */
  fetch: SafeFetch;
}

export const SOURCE = 'bindery/specs';

export const nowOf = (deps: Pick<SpecsDeps, 'clock'>) => new Date(deps.clock()).toISOString();
