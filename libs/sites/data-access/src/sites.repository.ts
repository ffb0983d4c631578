import { ClientSession, Db, Filter, UpdateFilter } from 'mongodb';
import type { EventEnvelope } from '@bindery/platform/events';
import { Repository } from '@bindery/platform/mongo';
import type { SiteRecord } from '@bindery/sites/domain';
import { COLLECTIONS } from './indexes';

export interface SiteQuery {
  organizationId: string;
  /** only these sites (e.g. those with a site space of a given space) */
  siteIds?: string[];
  title?: string;
  published?: boolean;
  type?: string;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Sites. Every read and write names the organization: a site of another organization is not found. */
export class SitesRepository extends Repository<SiteRecord> {
  constructor(db: Db, eventsRecorded?: () => void) {
    super(db, COLLECTIONS.sites, eventsRecorded, { softDeleteField: 'deletedAt' });
  }

  insert(record: SiteRecord, events: EventEnvelope[], session?: ClientSession) {
    return this.insertRecord(record, events, session);
  }

  get(organizationId: string, siteId: string, session?: ClientSession) {
    return this.findOne({ _id: siteId, organizationId }, { session });
  }

  /** By the instance-wide basename or hostname (the reader's and the resolver's lookups). */
  byBasename(basename: string) {
    return this.findOne({ basename });
  }

  byHostname(hostname: string) {
    return this.findOne({ hostname });
  }

  private filterOf(q: SiteQuery): Filter<SiteRecord> {
    const f: Filter<SiteRecord> = { organizationId: q.organizationId };
    if (q.siteIds) f._id = { $in: q.siteIds };
    if (q.title !== undefined) f.title = { $regex: escapeRegex(q.title), $options: 'i' };
    if (q.published !== undefined) f.published = q.published;
    if (q.type !== undefined) f.type = q.type as SiteRecord['type'];
    return f;
  }

  /** A page of the organization's sites, oldest first, after the cursor (createdAt, id). */
  page(q: SiteQuery, limit: number, after?: { k?: string; id: string }) {
    return this.keysetPage(this.filterOf(q), { key: 'createdAt', after, limit });
  }

  count(q: SiteQuery) {
    return this.countWhere(this.filterOf(q));
  }

  /** Applies `update` to the site; null when it is gone. */
  update(organizationId: string, siteId: string, update: UpdateFilter<SiteRecord> & { $set?: Partial<SiteRecord> }, events: EventEnvelope[], session?: ClientSession) {
    return this.updateRecord({ _id: siteId, organizationId }, update, events, { session });
  }

  /**
   * Moves the structure version from `expected` to `expected + 1` with `update`: the compare-and-set
   * every change of the site's structure goes through, so two concurrent moves cannot both apply
   * the order they computed from the same state. False when another change came first.
   */
  bumpStructure(
    organizationId: string,
    siteId: string,
    expected: number,
    update: { $set?: Partial<SiteRecord>; $unset?: Record<string, ''> },
    events: EventEnvelope[],
    session?: ClientSession,
  ) {
    return this.updateMatched(
      { _id: siteId, organizationId, structureVersion: expected },
      { ...update, $set: { ...(update.$set ?? {}), structureVersion: expected + 1 } } as UpdateFilter<SiteRecord> & { $set?: Partial<SiteRecord> },
      events,
      { session },
    );
  }

  /**
   * Deletes the site: the record stays (soft-deleted, left out of every read) until its events are
   * relayed; its basename and hostname are released at once for other sites. False when it was gone.
   */
  remove(organizationId: string, siteId: string, at: string, events: EventEnvelope[]): Promise<boolean> {
    return this.softDeleteRecord({ _id: siteId, organizationId }, at, events, { $set: { basename: `~deleted~${siteId}` }, $unset: { hostname: '' } });
  }
}
