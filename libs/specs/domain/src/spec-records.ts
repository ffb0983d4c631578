/** What specs stores. Every record carries its organization; ids are opaque (libs/shared/ids). */

/** The states of a spec's processing, as the official `OpenAPISpecProcessingState` names them. */
export const PROCESSING_STATES = ['pending', 'progress', 'complete'] as const;
export type ProcessingState = (typeof PROCESSING_STATES)[number];

/** Why the last processing failed (`OpenAPISpecProcessingErrorCode`): the fetch, or the document itself. */
export const PROCESS_ERROR_CODES = ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] as const;
export type ProcessErrorCode = (typeof PROCESS_ERROR_CODES)[number];

export const SPEC_VISIBILITIES = ['private', 'public'] as const;
export type SpecVisibility = (typeof SPEC_VISIBILITIES)[number];

/** One problem found while processing (`OpenAPIErrorObject`): what is wrong and where. */
export interface ProcessError {
  message: string;
  code?: string;
}

/** Where a spec's document comes from. */
export type SpecSource = { kind: 'text'; text: string } | { kind: 'url'; url: string };

export interface SpecRecord {
  _id: string;
  organizationId: string;
  /** unique among the organization's live specs; moved to `deletedSlug` when the spec is deleted */
  slug?: string;
  deletedSlug?: string;
  /** the current source; a text source's text is read only by the run that processes it */
  source: SpecSource;
  /** bumped by every new source: a run processes one revision and records nothing once it is stale */
  sourceRevision: number;
  visibility: SpecVisibility;
  processingState: ProcessingState;
  /** the run processing the current revision */
  runId: string;
  /** the latest version and the hash of its content: the pointer moves by compare-and-set on versionCount */
  lastVersionId?: string;
  lastVersionHash?: string;
  versionCount: number;
  lastProcessedAt?: string;
  lastProcessErrorCode?: ProcessErrorCode;
  lastProcessedErrors?: ProcessError[];
  lastProcessedErrorCount?: number;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
}

export type DocumentFormat = 'json' | 'yaml';

/** A version: a document that differed from the one before it. Never changed once written. */
export interface VersionRecord {
  _id: string;
  organizationId: string;
  specId: string;
  /** 1, 2, … per spec (unique with specId) */
  number: number;
  /** sha-256 of the normalised document (filesystemJson) */
  hash: string;
  format: DocumentFormat;
  sourceUrl?: string;
  createdAt: string;
}

/** A version's files, kept apart from the version so that lists never load them. */
export interface VersionContentRecord {
  _id: string;
  organizationId: string;
  specId: string;
  /** the Filesystem (entry first) as JSON text: what the hash is taken of */
  filesystemJson: string;
  /** the entry file as it was received */
  raw: string;
  format: DocumentFormat;
}

export interface TranslationSettingsRecord {
  _id: string;
  organizationId: string;
  title: string;
  /** BCP 47 tags in canonical form, each once */
  languages: string[];
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
}
