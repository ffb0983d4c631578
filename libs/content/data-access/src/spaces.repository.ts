import { ClientSession, Db, Filter } from 'mongodb';
import type { SpaceCounts, SpaceRecord, SpaceSelection, VisibleSpaces } from '@bindery/content/domain';
import { ROLES } from '@bindery/shared/roles';
import { ContentItemsRepository, ListPage } from './content-items.repository';
import { COLLECTIONS } from './indexes';

export class SpacesRepository extends ContentItemsRepository<SpaceRecord> {
  constructor(db: Db, eventsRecorded?: () => void) {
    super(db, COLLECTIONS.spaces, 'space', eventsRecorded);
  }

  /**
   * Moves a live space's current revision from `from` to `to`, only if it is still `from` (the
   * compare-and-set that keeps concurrent writers from losing each other's changes); false otherwise.
   */
  moveRevision(organizationId: string, spaceId: string, from: string, to: string, at: string, session?: ClientSession): Promise<boolean> {
    return this.updateMatched({ _id: spaceId, organizationId, revision: from }, { $set: { revision: to, updatedAt: at } } as never, [], { session });
  }

  /**
   * Records change-requests' counts for a space, deleted or not: a projected fact, so no event and no
   * change of `updatedAt`. False when no such space is stored (yet, or any more).
   */
  async setCounts(spaceId: string, counts: SpaceCounts, session?: ClientSession): Promise<boolean> {
    const r = await this.collection.updateOne({ _id: spaceId } as never, { $set: { counts } }, { session });
    return r.matchedCount === 1;
  }

  /** A page of the selected live spaces, in creation order. */
  pageOf(selection: SpaceSelection, page: ListPage): Promise<SpaceRecord[]> {
    return this.page(selectionFilter(selection), page);
  }

  /** A page of the selected live spaces in sibling order (a selection with one parent). */
  childrenPageOf(selection: SpaceSelection, page: ListPage): Promise<SpaceRecord[]> {
    return this.childrenPage(selectionFilter(selection), page);
  }

  countOf(selection: SpaceSelection): Promise<number> {
    return this.count(selectionFilter(selection));
  }

  /** Every selected live space, in id order. */
  allOf(selection: SpaceSelection): Promise<SpaceRecord[]> {
    return this.all(selectionFilter(selection));
  }

  /** The spaces directly under these collections of the organization, not purged; live only unless `includeDeleted`. */
  inCollections(organizationId: string, collectionIds: string[], options: { includeDeleted?: boolean; session?: ClientSession } = {}): Promise<SpaceRecord[]> {
    return this.all({ organizationId, parent: { $in: collectionIds }, purgedAt: { $exists: false } } as Filter<SpaceRecord>, options);
  }

  /** Live spaces after `after` in id order, at most `limit`: ids and organizations. */
  async idsAfter(after: string, limit: number): Promise<{ _id: string; organizationId: string }[]> {
    return this.findMany({ _id: { $gt: after } } as Filter<SpaceRecord>, { sort: { _id: 1 }, limit, projection: { _id: 1, organizationId: 1 } });
  }
}

function visibleFilter(v: VisibleSpaces): Filter<SpaceRecord> {
  const base = { organizationId: v.organizationId };
  if (v.all) return base;
  const or: Filter<SpaceRecord>[] = [];
  if (v.ownDefaultLevel) or.push({ defaultLevel: { $in: [...ROLES] } } as Filter<SpaceRecord>);
  if (v.inheritingUnder) or.push({ defaultLevel: 'inherit', parent: { $in: v.inheritingUnder } } as Filter<SpaceRecord>);
  if (v.ids?.length) or.push({ _id: { $in: v.ids } } as Filter<SpaceRecord>);
  if (v.under?.length) or.push({ parent: { $in: v.under } } as Filter<SpaceRecord>);
  // Nothing to see: a filter no space matches.
  return { ...base, $or: or.length ? or : [{ _id: { $in: [] } }] } as Filter<SpaceRecord>;
}

function selectionFilter(s: SpaceSelection): Filter<SpaceRecord> {
  const filter = { ...visibleFilter(s.visible), ...(s.parent !== undefined ? { parent: s.parent } : {}) } as Filter<SpaceRecord>;
  return s.alsoVisible ? ({ ...filter, $and: [visibleFilter(s.alsoVisible)] } as Filter<SpaceRecord>) : filter;
}
