import { ClientSession, Db, Filter } from 'mongodb';
import { containing, Repository } from '@bindery/platform/mongo';
import type { RedirectOrder, RedirectRecord } from '@bindery/sites/domain';
import { COLLECTIONS } from './indexes';

export interface RedirectQuery {
  organizationId: string;
  siteId: string;
  draft: boolean;
  /** only sources containing this text (case-insensitive) */
  search?: string;
}

/** How each order of a list reads the index: its key and direction (newest first for times, A to Z for sources). */
const ORDERS: Record<RedirectOrder, { key: keyof RedirectRecord; direction: 1 | -1 }> = {
  createdAt: { key: 'createdAt', direction: -1 },
  updatedAt: { key: 'updatedAt', direction: -1 },
  source: { key: 'source', direction: 1 },
};

/**
 * Site redirects. A source is unique per site and draft flag (index `site_source_unique`): a
 * duplicate insert or update fails with code 11000, which the use case answers 409. Redirect
 * documents carry no events: their changes are told by the site's `sites.site.updated`
 * ("redirects"), written in the same transaction, so a deleted redirect is removed for good at once.
 */
export class RedirectsRepository extends Repository<RedirectRecord> {
  constructor(db: Db) {
    super(db, COLLECTIONS.redirects);
  }

  insert(record: RedirectRecord, session?: ClientSession) {
    return this.insertRecord(record, [], session);
  }

  get(organizationId: string, siteId: string, redirectId: string, session?: ClientSession) {
    return this.findOne({ _id: redirectId, organizationId, siteId }, { session });
  }

  private filterOf(q: RedirectQuery): Filter<RedirectRecord> {
    const f: Filter<RedirectRecord> = { organizationId: q.organizationId, siteId: q.siteId, draft: q.draft };
    if (q.search) f.source = { ...containing(q.search), $options: 'i' };
    return f;
  }

  /** A page of the site's redirects in the given order, after the cursor (key, id). */
  page(q: RedirectQuery, order: RedirectOrder, limit: number, after?: { k?: string | number; id: string }) {
    const { key, direction } = ORDERS[order];
    return this.keysetPage(this.filterOf(q), { key, direction, after, limit });
  }

  count(q: RedirectQuery) {
    return this.countWhere(this.filterOf(q));
  }

  /** The live (not draft) redirects of the site with one of these sources: a lookup's candidates. */
  liveWithSources(organizationId: string, siteId: string, sources: string[]) {
    return this.findMany({ organizationId, siteId, draft: false, source: { $in: sources } });
  }

  /** Sets fields of the redirect; null when it is gone. */
  update(organizationId: string, siteId: string, redirectId: string, set: Partial<RedirectRecord>, session?: ClientSession) {
    return this.updateRecord({ _id: redirectId, organizationId, siteId }, { $set: set }, [], { session });
  }

  /** Deletes the redirect for good; false when it was gone. */
  async remove(organizationId: string, siteId: string, redirectId: string, session?: ClientSession): Promise<boolean> {
    return (await this.hardDelete({ _id: redirectId, organizationId, siteId }, session)) === 1;
  }
}
