import { ClientSession, Db } from 'mongodb';
import { Repository } from '@bindery/platform/mongo';
import type { ShareLinkRecord } from '@bindery/sites/domain';
import { COLLECTIONS } from './indexes';

/**
 * Share links of sites. A share link's document never carries events (its changes are told by the
 * site's `sites.site.updated`, written in the same transaction), so a deleted link is removed for
 * good at once and its key stops working with the delete.
 */
export class ShareLinksRepository extends Repository<ShareLinkRecord> {
  constructor(db: Db) {
    super(db, COLLECTIONS.shareLinks);
  }

  insert(record: ShareLinkRecord, session?: ClientSession) {
    return this.insertRecord(record, [], session);
  }

  get(siteId: string, shareLinkId: string, session?: ClientSession) {
    return this.findOne({ _id: shareLinkId, siteId }, { session });
  }

  /** A page of the site's share links, oldest first, after the cursor (createdAt, id). */
  page(siteId: string, limit: number, after?: { k?: string | number; id: string }) {
    return this.keysetPage({ siteId }, { key: 'createdAt', after, limit });
  }

  count(siteId: string) {
    return this.countWhere({ siteId });
  }

  /** Sets the name or the active flag; null when the link is gone. */
  update(siteId: string, shareLinkId: string, set: Partial<Pick<ShareLinkRecord, 'name' | 'active' | 'updatedAt'>>, session?: ClientSession) {
    return this.updateRecord({ _id: shareLinkId, siteId }, { $set: set }, [], { session });
  }

  /** Deletes the link for good; false when it was gone. */
  async remove(siteId: string, shareLinkId: string, session?: ClientSession): Promise<boolean> {
    return (await this.hardDelete({ _id: shareLinkId, siteId }, session)) === 1;
  }

  /**
   * The active share link of the site with this key, or null: what a reader's share key opens.
   * Read from the database on every call, so a link deactivated or deleted stops opening at once.
   */
  activeShareLinkByKey(siteId: string, key: string): Promise<ShareLinkRecord | null> {
    return this.findOne({ key, siteId, active: true });
  }
}
