import { ClientSession, Db, UpdateFilter } from 'mongodb';
import type { EventEnvelope } from '@bindery/platform/events';
import { Repository } from '@bindery/platform/mongo';
import type { SpecRecord } from '@bindery/specs/domain';
import { COLLECTIONS } from './indexes';

/** What reads of a spec leave out: the text of a text source (up to a megabyte, read by its run only). */
const NO_TEXT = { projection: { 'source.text': 0 } };

type SpecUpdate = UpdateFilter<SpecRecord> & { $set?: Partial<SpecRecord> };

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

  /** Applies `update` to the live spec with that slug; null when there is none. */
  updateBySlug(organizationId: string, slug: string, update: SpecUpdate, events: EventEnvelope[], session?: ClientSession) {
    return this.updateRecord({ organizationId, slug }, update, events, { session });
  }

  /**
   * Applies `update` only while the spec still processes `revision` (a newer source makes a run's
   * writes stale: they change nothing). Answers whether it applied.
   */
  updateIfRevision(organizationId: string, specId: string, revision: number, update: SpecUpdate, events: EventEnvelope[], session?: ClientSession) {
    return this.updateMatched({ _id: specId, organizationId, sourceRevision: revision }, update, events, { session });
  }

  /**
   * Applies `update` only while the spec's latest version is still the one seen (`expectedCount`
   * versions) and its source is still `revision`. False when another version came first.
   */
  updateIfLatest(organizationId: string, specId: string, revision: number, expectedCount: number, update: SpecUpdate, events: EventEnvelope[], session?: ClientSession) {
    return this.updateMatched({ _id: specId, organizationId, sourceRevision: revision, versionCount: expectedCount }, update, events, { session });
  }

  /**
   * Moves the latest-version pointer: the compare-and-set on `versionCount` every new version goes
   * through (from `expectedCount` to `expectedCount + 1`), so two runs that both saw the same latest
   * version cannot both add one on top of it. False when another version came first or the spec's
   * source moved on (`revision`).
   */
  advanceLatest(organizationId: string, specId: string, revision: number, expectedCount: number, update: SpecUpdate, events: EventEnvelope[], session?: ClientSession) {
    return this.updateIfLatest(
      organizationId,
      specId,
      revision,
      expectedCount,
      { ...update, $set: { ...(update.$set ?? {}), versionCount: expectedCount + 1 } } as SpecUpdate,
      events,
      session,
    );
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
