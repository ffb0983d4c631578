import { ClientSession, Db, Filter } from 'mongodb';
import { EventEnvelope } from '@bindery/platform/events';
import { Repository } from '@bindery/platform/mongo';
import type { CollectionRecord, SpaceRecord, Sibling, ContentKind } from '@bindery/content/domain';

type Item = SpaceRecord | CollectionRecord;
export interface ListPage {
  after?: { k?: string | number; id: string };
  limit: number;
  direction?: 1 | -1;
}

/**
 * What spaces and collections have in common: a place in an organization's tree (parent, position
 * among siblings) and a deletion lifecycle (deletedAt → purgedAt → removed).
 */
export abstract class ContentItemsRepository<T extends Item> extends Repository<T> {
  constructor(
    db: Db,
    collection: string,
    readonly kind: ContentKind,
    eventsRecorded?: () => void,
  ) {
    super(db, collection, eventsRecorded, { softDeleteField: 'deletedAt' });
  }

  insert(record: T, events: EventEnvelope[], session?: ClientSession) {
    return this.insertRecord(record, events, session);
  }

  findLive(id: string, session?: ClientSession) {
    return this.findOne({ _id: id } as Filter<T>, { session });
  }

  /** Live or deleted, but not yet purged. */
  findIncludingDeleted(id: string, session?: ClientSession) {
    return this.findOne({ _id: id, purgedAt: { $exists: false } } as Filter<T>, { session, includeDeleted: true });
  }

  /** The live children of one parent, as siblings in order. */
  async siblings(organizationId: string, parent: string | null, session?: ClientSession): Promise<Sibling[]> {
    const docs = await this.findMany({ organizationId, parent } as Filter<T>, { session, projection: { _id: 1, position: 1 }, sort: { position: 1, _id: 1 } });
    return docs.map((d) => ({ kind: this.kind, id: d._id, position: d.position }));
  }

  /** The organization's items matching `filter`, a page at a time on (createdAt, id). */
  protected page(filter: Filter<T>, page: ListPage) {
    return this.keysetPage(filter, { key: 'createdAt', direction: page.direction, after: page.after, limit: page.limit });
  }

  /** A page of one parent's live children in sibling order. */
  protected childrenPage(filter: Filter<T>, page: ListPage) {
    return this.keysetPage(filter, { key: 'position', after: page.after, limit: page.limit });
  }

  protected count(filter: Filter<T>) {
    return this.countWhere(filter);
  }

  protected all(filter: Filter<T>, options: { includeDeleted?: boolean; session?: ClientSession } = {}) {
    return this.findMany(filter, { ...options, sort: { _id: 1 } });
  }

  /** Applies a change to the live item with its events; null when it is not there. */
  update(id: string, set: Partial<T>, unset: string[], events: EventEnvelope[], session?: ClientSession) {
    const update: Record<string, unknown> = { $set: set };
    if (unset.length) update.$unset = Object.fromEntries(unset.map((f) => [f, '']));
    return this.updateRecord({ _id: id } as Filter<T>, update, events, { session });
  }

  /**
   * Writes the live item (a version counter) inside a transaction that adds something under it, so
   * that a concurrent delete, move or transfer of it conflicts with that transaction; false when it
   * is not live.
   */
  touch(id: string, session: ClientSession) {
    return this.updateMatched({ _id: id } as Filter<T>, { $inc: { version: 1 } } as never, [], { session });
  }

  setPosition(id: string, position: number, session: ClientSession) {
    return this.updateMatched({ _id: id } as Filter<T>, { $set: { position } } as never, [], { session });
  }

  /** Marks the live item deleted; false when it was not live. */
  softDelete(id: string, at: string, deletedWith: string | undefined, events: EventEnvelope[], session: ClientSession) {
    const set: Record<string, unknown> = { deletedAt: at, updatedAt: at };
    if (deletedWith) set.deletedWith = deletedWith;
    return this.updateMatched({ _id: id } as Filter<T>, { $set: set } as never, events, { session });
  }

  /** Brings a deleted (not purged) item back, possibly under another parent. */
  restore(id: string, at: string, parent: string | null, events: EventEnvelope[], session: ClientSession) {
    return this.updateRecord(
      { _id: id, deletedAt: { $exists: true }, purgedAt: { $exists: false } } as Filter<T>,
      { $set: { updatedAt: at, parent }, $unset: { deletedAt: '', deletedWith: '' } } as never,
      events,
      { session, includeDeleted: true },
    );
  }

  /** Moves items (live or deleted) to another organization. */
  async transfer(ids: string[], organizationId: string, at: string, session: ClientSession, eventsFor: (id: string) => EventEnvelope[] = () => []) {
    for (const id of ids) {
      await this.updateMatched({ _id: id } as Filter<T>, { $set: { organizationId, updatedAt: at } } as never, eventsFor(id), { session, includeDeleted: true });
    }
  }

  /** Ids of items deleted before `cutoff` and not yet purged (a batch). */
  async duePurge(cutoff: string, limit: number): Promise<T[]> {
    return this.findMany({ deletedAt: { $lt: cutoff }, purgedAt: { $exists: false } } as Filter<T>, { includeDeleted: true, limit, sort: { deletedAt: 1 } });
  }

  /**
   * Claims one due item for the purge, recording its event in the same conditional write: of any
   * number of replicas trying at once, exactly one succeeds, so the event is published once.
   */
  claimPurge(id: string, cutoff: string, at: string, events: EventEnvelope[]): Promise<boolean> {
    return this.updateMatched({ _id: id, deletedAt: { $lt: cutoff }, purgedAt: { $exists: false } } as Filter<T>, { $set: { purgedAt: at } } as never, events, {
      includeDeleted: true,
    });
  }

  /** Removes purged items whose events have been relayed; answers their ids. */
  async removePurged(limit = 500): Promise<string[]> {
    const docs = await this.findMany({ purgedAt: { $exists: true } } as Filter<T>, { includeDeleted: true, projection: { _id: 1 }, limit });
    if (!docs.length) return [];
    const ids = docs.map((d) => d._id);
    await this.hardDelete({ _id: { $in: ids }, purgedAt: { $exists: true } } as Filter<T>);
    const left = new Set((await this.findMany({ _id: { $in: ids } } as Filter<T>, { includeDeleted: true, projection: { _id: 1 } })).map((d) => d._id));
    return ids.filter((id) => !left.has(id));
  }
}
