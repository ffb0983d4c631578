import { Db } from 'mongodb';
import type { ShareLinkRecord } from '@bindery/sites/domain';
import { COLLECTIONS } from './indexes';

/**
 * The one question structure reads ask of share links: is this key an active link of this site?
 * (Looked up by the instance-wide unique key; never logged.)
 */
export class ShareLinkKeys {
  constructor(private readonly db: Db) {}

  activeShareLinkByKey(siteId: string, key: string): Promise<Pick<ShareLinkRecord, '_id'> | null> {
    return this.db
      .collection<ShareLinkRecord & { deletedAt?: string }>(COLLECTIONS.shareLinks)
      .findOne({ key, siteId, active: true, deletedAt: { $exists: false } }, { projection: { _id: 1 } });
  }
}
