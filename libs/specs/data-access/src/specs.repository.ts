import { ClientSession, Db, UpdateFilter } from 'mongodb';
import type { EventEnvelope } from '@bindery/platform/events';
import { Repository } from '@bindery/platform/mongo';
import type { ProcessError, ProcessErrorCode, SpecRecord, SpecSource, SpecVisibility } from '@bindery/specs/domain';
import { COLLECTIONS } from './indexes';

/** What reads of a spec leave out: the text of a text source (up to a megabyte, read by its run only). */
const NO_TEXT = { projection: { 'source.text': 0 } };

type SpecUpdate = UpdateFilter<SpecRecord> & { $set?: Partial<SpecRecord> };

/** A processing that ended on a problem: its code, its first problems and how many there were. */
export interface ProcessingProblem {
  code: ProcessErrorCode;
  errors: ProcessError[];
  count: number;
}

/** A processing that ended on a version: complete, without problems (those of an earlier one removed). */
const PROCESSED = { processingState: 'complete' as const, lastProcessedErrorCount: 0 };
const NO_ERRORS = { lastProcessErrorCode: '' as const, lastProcessedErrors: '' as const };

/** OpenAPI specs. Every read and write names the organization; a deleted spec is left out of every read. */
export class SpecsRepository extends Repository<SpecRecord> {
  constructor(db: Db, eventsRecorded?: () => void) {
    super(db, COLLECTIONS.specs, eventsRecorded, { softDeleteField: 'deletedAt' });
  }

  /** Inserts a new spec; a taken slug is a duplicate key (the unique index decides, not a read before). */
  insert(record: SpecRecord, events: EventEnvelope[], session?: ClientSession) {
    return this.insertRecord(record, events, session);
  }

  bySlug(organizationId: string, slug: string, session?: ClientSession) {
    return this.findOne({ organizationId, slug }, { ...NO_TEXT, session });
  }

  /** The organization's live spec whose source is this URL (the oldest, should several share it). */
  async bySourceUrl(organizationId: string, url: string) {
    const [spec] = await this.findMany({ organizationId, 'source.kind': 'url', 'source.url': url }, { sort: { createdAt: 1, _id: 1 }, limit: 1, ...NO_TEXT });
    return spec ?? null;
  }

  get(organizationId: string, specId: string, session?: ClientSession) {
    return this.findOne({ _id: specId, organizationId }, { ...NO_TEXT, session });
  }

  /** The spec with its source's text, as the run processing it reads it. */
  withSource(organizationId: string, specId: string) {
    return this.findOne({ _id: specId, organizationId });
  }

  /** A page of the organization's specs, oldest first, after the cursor (createdAt, id). */
  async page(organizationId: string, limit: number, after?: { k?: string | number; id: string }) {
    return this.findMany(
      { organizationId, ...(after ? { $or: [{ createdAt: { $gt: String(after.k) } }, { createdAt: String(after.k), _id: { $gt: after.id } }] } : {}) },
      { sort: { createdAt: 1, _id: 1 }, limit: limit + 1, ...NO_TEXT },
    );
  }

  count(organizationId: string) {
    return this.countWhere({ organizationId });
  }

  /** Gives the live spec with that slug a new source to process (a new source revision, pending); null when there is none. */
  replaceSource(organizationId: string, slug: string, source: SpecSource, at: string, events: EventEnvelope[], session?: ClientSession) {
    return this.updateRecord({ organizationId, slug }, { $set: { source, processingState: 'pending', updatedAt: at }, $inc: { sourceRevision: 1 } }, events, { session });
  }

  /** Sets the visibility of the live spec with that slug; null when there is none. */
  setVisibility(organizationId: string, slug: string, visibility: SpecVisibility, at: string, events: EventEnvelope[]) {
    return this.updateRecord({ organizationId, slug }, { $set: { visibility, updatedAt: at } }, events);
  }

  /** Names the run that processes `revision` of the spec's source (nothing when the source moved on). */
  setRun(organizationId: string, specId: string, revision: number, runId: string, session?: ClientSession) {
    return this.whileRevision(organizationId, specId, revision, { $set: { runId } }, [], session);
  }

  /** Marks the processing of `revision` under way; false when the source moved on. */
  startProcessing(organizationId: string, specId: string, revision: number, at: string) {
    return this.whileRevision(organizationId, specId, revision, { $set: { processingState: 'progress', updatedAt: at } }, []);
  }

  /** Ends the processing of `revision` on a problem (its code, first problems and count); false when the source moved on. */
  recordFailure(organizationId: string, specId: string, revision: number, problem: ProcessingProblem, at: string, events: EventEnvelope[]) {
    const failed = { lastProcessErrorCode: problem.code, lastProcessedErrors: problem.errors, lastProcessedErrorCount: problem.count };
    return this.whileRevision(organizationId, specId, revision, { $set: { processingState: 'complete', lastProcessedAt: at, ...failed, updatedAt: at } }, events);
  }

  /**
   * Ends the processing of `revision` on the latest version, which the document did not change: only
   * while that version is still the latest (`expectedCount` versions) and the source still
   * `revision`. False when another version came first.
   */
  endOnLatest(organizationId: string, specId: string, revision: number, expectedCount: number, at: string, events: EventEnvelope[]) {
    return this.whileLatest(organizationId, specId, revision, expectedCount, { $set: { ...PROCESSED, lastProcessedAt: at, updatedAt: at }, $unset: NO_ERRORS }, events);
  }

  /**
   * Moves the latest-version pointer to a new version (its id and hash), ending the processing: the
   * compare-and-set on `versionCount` every new version goes through (from `expectedCount` to
   * `expectedCount + 1`), so two runs that both saw the same latest version cannot both add one on top
   * of it. False when another version came first or the spec's source moved on (`revision`).
   */
  advanceLatest(
    organizationId: string,
    specId: string,
    revision: number,
    expectedCount: number,
    version: { id: string; hash: string },
    at: string,
    events: EventEnvelope[],
    session?: ClientSession,
  ) {
    const latest = { lastVersionId: version.id, lastVersionHash: version.hash, versionCount: expectedCount + 1 };
    return this.whileLatest(
      organizationId,
      specId,
      revision,
      expectedCount,
      { $set: { ...PROCESSED, ...latest, lastProcessedAt: at, updatedAt: at }, $unset: NO_ERRORS },
      events,
      session,
    );
  }

  /** Applies `update` only while the spec still processes `revision` (a newer source makes a run's writes stale). */
  private whileRevision(organizationId: string, specId: string, revision: number, update: SpecUpdate, events: EventEnvelope[], session?: ClientSession) {
    return this.updateMatched({ _id: specId, organizationId, sourceRevision: revision }, update, events, { session });
  }

  /** Applies `update` only while the spec's latest version is still the one seen and its source is still `revision`. */
  private whileLatest(organizationId: string, specId: string, revision: number, expectedCount: number, update: SpecUpdate, events: EventEnvelope[], session?: ClientSession) {
    return this.updateMatched({ _id: specId, organizationId, sourceRevision: revision, versionCount: expectedCount }, update, events, { session });
  }

  /** Deletes the spec: the record stays (soft-deleted, its text dropped) until its events are relayed; its slug is free at once. */
  remove(organizationId: string, slug: string, at: string, events: EventEnvelope[], session?: ClientSession) {
    return this.updateRecord(
      { organizationId, slug },
      { $set: { deletedAt: at, deletedSlug: slug, updatedAt: at, source: { kind: 'text', text: '' } }, $unset: { slug: '' } } as SpecUpdate,
      events,
      { session },
    );
  }
}
