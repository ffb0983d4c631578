import type { ProcessError, ProcessErrorCode } from '@bindery/specs/domain';

/** The most problems a spec keeps of one processing (the official `lastProcessedErrors`). */
export const MAX_KEPT_ERRORS = 20;

/**
 * Why a document could not be processed, for the person who sent it: the fetch (FETCH_ERROR,
 * FETCH_TIMEOUT) or the document itself (PARSE_ERROR), each problem saying where and what. Trying
 * again does not help until the source changes, so a run records it and ends.
 */
export class DocumentProblem extends Error {
  readonly errors: ProcessError[];
  readonly count: number;

  constructor(
    readonly code: ProcessErrorCode,
    errors: ProcessError[],
  ) {
    super(errors[0]?.message ?? code);
    this.name = 'DocumentProblem';
    this.errors = errors.slice(0, MAX_KEPT_ERRORS);
    this.count = errors.length;
  }
}
