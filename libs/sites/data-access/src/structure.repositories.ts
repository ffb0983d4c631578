import { AnyBulkWriteOperation, ClientSession, Collection, Db, Document, Filter } from 'mongodb';
import { Repository } from '@bindery/platform/mongo';
import type { SectionGroupRecord, SectionRecord, SiteSpaceRecord, StructureState } from '@bindery/sites/domain';
import { COLLECTIONS } from './indexes';

type SiteItem = { _id: string; organizationId: string; siteId: string; order: number };
type Changes<T> = { inserted: T[]; updated: Array<{ id: string; set: Partial<T>; unset: string[] }>; removed: string[] };

/** A record as MongoDB should store it: no field whose value is undefined (the driver would store null). */
const stored = <T>(record: T): T => JSON.parse(JSON.stringify(record)) as T;

/**
 * The items of sites' structures (sections, section groups, site spaces): always read and written
 * per site, and only inside a structure change (see SiteStructure), except the lists' pages. Their
 * events are recorded on the site (sites.site.updated), so these documents carry none.
 */
abstract class SiteItemsRepository<T extends SiteItem> extends Repository<T> {
  /** Every item of the site, in no particular order. */
  ofSite(organizationId: string, siteId: string, session?: ClientSession): Promise<T[]> {
    return this.findMany({ organizationId, siteId } as Filter<T>, { session });
  }

  get(organizationId: string, siteId: string, id: string, session?: ClientSession): Promise<T | null> {
    return this.findOne({ _id: id, organizationId, siteId } as Filter<T>, { session });
  }

  /**
   * Writes a structure change: inserts, field changes (each stamped `updatedAt`) and removals, in
   * the caller's transaction. A path another item holds fails on the unique index (code 11000).
   */
  async apply(organizationId: string, siteId: string, changes: Changes<T>, now: string, session: ClientSession): Promise<void> {
    const ops: AnyBulkWriteOperation<T>[] = [
      ...changes.inserted.map((r) => ({ insertOne: { document: stored(r) } }) as AnyBulkWriteOperation<T>),
      ...changes.updated.map(
        (u) =>
          ({
            updateOne: {
              filter: { _id: u.id, organizationId, siteId },
              update: { $set: { ...stored(u.set), updatedAt: now }, ...(u.unset.length ? { $unset: Object.fromEntries(u.unset.map((k) => [k, ''])) } : {}) },
            },
          }) as unknown as AnyBulkWriteOperation<T>,
      ),
      ...(changes.removed.length ? [{ deleteMany: { filter: { _id: { $in: changes.removed }, organizationId, siteId } } } as AnyBulkWriteOperation<T>] : []),
    ];
    if (ops.length) await this.collection.bulkWrite(ops as never, { session, ordered: true });
  }

  protected pageWhere(filter: Filter<T>, limit: number, after?: { k?: string | number; id: string }) {
    return this.keysetPage(filter, { key: 'order', after, limit });
  }
}

export class SectionsRepository extends SiteItemsRepository<SectionRecord> {
  constructor(db: Db) {
    super(db, COLLECTIONS.sections);
  }

  /** A page of the site's sections by their order in their container, then id. */
  page(organizationId: string, siteId: string, limit: number, after?: { k?: string | number; id: string }) {
    return this.pageWhere({ organizationId, siteId }, limit, after);
  }

  count(organizationId: string, siteId: string) {
    return this.countWhere({ organizationId, siteId });
  }

  /** The site's sections by their order, then id (the order within each container: groups are not opened). */
  inOrder(organizationId: string, siteId: string): Promise<SectionRecord[]> {
    return this.findMany({ organizationId, siteId }, { sort: { order: 1, _id: 1 } });
  }

  /** The sections of these groups, in order. */
  ofGroups(organizationId: string, siteId: string, groupIds: string[]): Promise<SectionRecord[]> {
    return this.findMany({ organizationId, siteId, sectionGroupId: { $in: groupIds } }, { sort: { order: 1, _id: 1 } });
  }
}

export class SectionGroupsRepository extends SiteItemsRepository<SectionGroupRecord> {
  constructor(db: Db) {
    super(db, COLLECTIONS.sectionGroups);
  }

  page(organizationId: string, siteId: string, limit: number, after?: { k?: string | number; id: string }) {
    return this.pageWhere({ organizationId, siteId }, limit, after);
  }

  count(organizationId: string, siteId: string) {
    return this.countWhere({ organizationId, siteId });
  }
}

export interface SiteSpaceQuery {
  organizationId: string;
  siteId: string;
  /** only these site spaces, or all but these */
  ids?: { in?: string[]; notIn?: string[] };
}

export class SiteSpacesRepository extends SiteItemsRepository<SiteSpaceRecord> {
  constructor(db: Db) {
    super(db, COLLECTIONS.siteSpaces);
  }

  private filterOf(q: SiteSpaceQuery): Filter<SiteSpaceRecord> {
    const f: Filter<SiteSpaceRecord> = { organizationId: q.organizationId, siteId: q.siteId, spaceDeletedAt: { $exists: false } };
    if (q.ids?.in) f._id = { $in: q.ids.in };
    else if (q.ids?.notIn) f._id = { $nin: q.ids.notIn };
    return f;
  }

  /** A page of the site's shown site spaces (not those of deleted spaces) by their order in their container, then id. */
  page(q: SiteSpaceQuery, limit: number, after?: { k?: string | number; id: string }) {
    return this.pageWhere(this.filterOf(q), limit, after);
  }

  count(q: SiteSpaceQuery) {
    return this.countWhere(this.filterOf(q));
  }

  /** The site's shown site spaces (not those of deleted spaces) by section, order and id. */
  shownOfSite(organizationId: string, siteId: string): Promise<SiteSpaceRecord[]> {
    return this.findMany({ organizationId, siteId, spaceDeletedAt: { $exists: false } }, { sort: { sectionId: 1, order: 1, _id: 1 } });
  }

  /** The shown site spaces of these sections, in order. */
  shownOfSections(organizationId: string, siteId: string, sectionIds: string[]): Promise<SiteSpaceRecord[]> {
    return this.findMany({ organizationId, siteId, sectionId: { $in: sectionIds }, spaceDeletedAt: { $exists: false } }, { sort: { order: 1, _id: 1 } });
  }

  /** The sites of the organization with a site space of the space (shown or hidden). */
  async sitesWithSpace(organizationId: string, spaceId: string, session?: ClientSession): Promise<string[]> {
    const all = this.collection as unknown as Collection<Document>;
    return (await all.distinct('siteId', { organizationId, spaceId }, { session })) as string[];
  }
}

/** Reads a site's whole structure in the caller's transaction (the site's defaults come with the site). */
export async function loadStructure(
  repos: { sections: SectionsRepository; sectionGroups: SectionGroupsRepository; siteSpaces: SiteSpacesRepository },
  site: { _id: string; organizationId: string; defaultSectionId?: string; defaultSiteSpaceId?: string },
  session?: ClientSession,
): Promise<StructureState> {
  // one after another: a transaction's session runs one operation at a time
  const sections = await repos.sections.ofSite(site.organizationId, site._id, session);
  const groups = await repos.sectionGroups.ofSite(site.organizationId, site._id, session);
  const siteSpaces = await repos.siteSpaces.ofSite(site.organizationId, site._id, session);
  return { defaultSectionId: site.defaultSectionId, defaultSiteSpaceId: site.defaultSiteSpaceId, sections, groups, siteSpaces };
}

/**
 * What a site's published URLs are computed from, read side by side outside any transaction: its
 * sections (by order, then id) and its shown site spaces (by section, order and id). Redirects, the
 * site's search, the published-URL resolver and site tokens read the structure through this.
 */
export async function loadShownItems(
  repos: { sections: SectionsRepository; siteSpaces: SiteSpacesRepository },
  site: { _id: string; organizationId: string },
): Promise<{ sections: SectionRecord[]; siteSpaces: SiteSpaceRecord[] }> {
  const [sections, siteSpaces] = await Promise.all([repos.sections.inOrder(site.organizationId, site._id), repos.siteSpaces.shownOfSite(site.organizationId, site._id)]);
  return { sections, siteSpaces };
}
