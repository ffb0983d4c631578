import { ClientSession, Collection, Db, Document, Filter, FindOptions, Sort, UpdateFilter } from 'mongodb';
import { EventEnvelope, outboxOnInsert, withOutbox } from '@bindery/platform/events';

/** A stored document: the record plus the events it still has to relay (never seen outside this file). */
type Stored<T> = T & { outbox?: Record<string, EventEnvelope>; outboxCount?: number };

const HIDE_OUTBOX = { outbox: 0, outboxCount: 0 } as const;

export interface RepositoryOptions {
  /** the field whose presence marks a soft-deleted document; its reads leave such documents out */
  softDeleteField?: string;
}

/**
 * The base of every repository, holding the rules that keep data safe so that no repository has to
 * remember them:
 * - reads never return the outbox of pending events;
 * - soft-deleted documents are left out of reads (unless asked for);
 * - a write with events records them in the same single-document write and wakes the outbox relay;
 * - a document with unsent events is never hard-deleted;
 * - lists page with keyset cursors on `(key, _id)`.
 */
export abstract class Repository<T extends { _id: string }> {
  constructor(
    protected readonly db: Db,
    private readonly collectionName: string,
    private readonly eventsRecorded: () => void = () => undefined,
    private readonly options: RepositoryOptions = {},
  ) {}

  /** The raw collection, for index-specific queries; prefer the helpers below. */
  protected get collection(): Collection<Stored<T>> {
    return this.db.collection<Stored<T>>(this.collectionName);
  }

  private live(filter: Filter<T>, includeDeleted = false): Filter<Stored<T>> {
    const field = this.options.softDeleteField;
    if (!field || includeDeleted) return filter as Filter<Stored<T>>;
    return { ...filter, [field]: { $exists: false } } as Filter<Stored<T>>;
  }

  private projection(options: FindOptions = {}): Document {
    // An inclusion projection already leaves the outbox out; otherwise exclude it.
    const given = options.projection as Document | undefined;
    if (given && Object.values(given).some((v) => v === 1 || v === true)) return given;
    return { ...(given ?? {}), ...HIDE_OUTBOX };
  }

  private woke(events: readonly EventEnvelope[]): void {
    if (events.length) this.eventsRecorded();
  }

  protected async findOne(filter: Filter<T>, options: FindOptions & { includeDeleted?: boolean; session?: ClientSession } = {}): Promise<T | null> {
    const { includeDeleted, ...rest } = options;
    return (await this.collection.findOne(this.live(filter, includeDeleted), { ...rest, projection: this.projection(rest) })) as T | null;
  }

  protected async findMany(filter: Filter<T>, options: FindOptions & { includeDeleted?: boolean; sort?: Sort; limit?: number } = {}): Promise<T[]> {
    const { includeDeleted, ...rest } = options;
    return (await this.collection.find(this.live(filter, includeDeleted), { ...rest, projection: this.projection(rest) }).toArray()) as T[];
  }

  protected countWhere(filter: Filter<T>, options: { includeDeleted?: boolean; limit?: number; session?: ClientSession } = {}): Promise<number> {
    const { includeDeleted, ...rest } = options;
    return this.collection.countDocuments(this.live(filter, includeDeleted), rest);
  }

  /** Inserts a record with its events in the same write. */
  protected async insertRecord(record: T, events: readonly EventEnvelope[] = [], session?: ClientSession): Promise<T> {
    const doc = (events.length ? { ...record, ...outboxOnInsert([...events]) } : { ...record }) as Stored<T>;
    await this.collection.insertOne(doc as never, { session });
    this.woke(events);
    return record;
  }

  /**
   * Updates the one live document matching `filter`, recording `events` in the same write; answers
   * the document after the update, or null when none matched.
   */
  protected async updateRecord(
    filter: Filter<T>,
    update: UpdateFilter<T> & { $set?: Document },
    events: readonly EventEnvelope[] = [],
    options: { session?: ClientSession; includeDeleted?: boolean; upsert?: boolean } = {},
  ): Promise<T | null> {
    const doc = await this.collection.findOneAndUpdate(this.live(filter, options.includeDeleted), withOutbox(update as Document, [...events]) as UpdateFilter<Stored<T>>, {
      returnDocument: 'after',
      projection: HIDE_OUTBOX,
      session: options.session,
      upsert: options.upsert,
    });
    if (doc) this.woke(events);
    return doc as T | null;
  }

  /** Like updateRecord, answering only whether a document matched (no read-back). */
  protected async updateMatched(
    filter: Filter<T>,
    update: UpdateFilter<T> & { $set?: Document },
    events: readonly EventEnvelope[] = [],
    options: { session?: ClientSession; includeDeleted?: boolean } = {},
  ): Promise<boolean> {
    const r = await this.collection.updateOne(this.live(filter, options.includeDeleted), withOutbox(update as Document, [...events]) as UpdateFilter<Stored<T>>, {
      session: options.session,
    });
    if (r.matchedCount === 1) this.woke(events);
    return r.matchedCount === 1;
  }

  /** Marks the live document deleted (the soft-delete field set to `at`) with its events; false when none matched. */
  protected softDeleteRecord(filter: Filter<T>, at: string, events: readonly EventEnvelope[], extra: { $set?: Document; $unset?: Document } = {}): Promise<boolean> {
    const field = this.options.softDeleteField;
    if (!field) throw new Error(`${this.collectionName} has no soft-delete field`);
    return this.updateMatched(filter, { ...extra, $set: { ...(extra.$set ?? {}), [field]: at } } as UpdateFilter<T>, events);
  }

  /**
   * Deletes documents for good, but never one whose events have not been relayed yet (it stays,
   * and a later purge takes it); answers how many were deleted.
   */
  protected async hardDelete(filter: Filter<T>, session?: ClientSession): Promise<number> {
    const noPending = { $or: [{ outboxCount: { $exists: false } }, { outboxCount: { $lte: 0 } }] };
    const r = await this.collection.deleteMany({ $and: [filter as Filter<Stored<T>>, noPending] } as Filter<Stored<T>>, { session });
    return r.deletedCount;
  }

  /**
   * One page of a list on `(key, _id)`: after `cursor` (the key and id of the last item served),
   * ascending or descending, up to `limit + 1` records (an extra one says more follow, as
   * `toPage` of shared/pagination expects). Needs an index on the filter fields, then `key`, `_id`.
   */
  protected async keysetPage(
    filter: Filter<T>,
    page: { key?: string; direction?: 1 | -1; after?: { k?: string | number; id: string }; limit: number; includeDeleted?: boolean },
  ): Promise<T[]> {
    const dir = page.direction ?? 1;
    const cmp = dir === 1 ? '$gt' : '$lt';
    let range: Document = {};
    if (page.after) {
      range =
        page.key === undefined || page.after.k === undefined
          ? { _id: { [cmp]: page.after.id } }
          : { $or: [{ [page.key]: { [cmp]: page.after.k } }, { [page.key]: page.after.k, _id: { [cmp]: page.after.id } }] };
    }
    const sort: Sort = page.key ? { [page.key]: dir, _id: dir } : { _id: dir };
    return this.findMany({ ...filter, ...range } as Filter<T>, { sort, limit: page.limit + 1, includeDeleted: page.includeDeleted });
  }
}
