import { randomBytes } from 'node:crypto';
import { Db } from 'mongodb';
import { isDuplicateKey } from '@bindery/platform/mongo';
import type { ShareLinkRecord } from '@bindery/sites/domain';
import { COLLECTIONS } from './indexes';

interface SigningKeyRecord {
  _id: string;
  /** 32 random bytes, base64url: never leaves this service, never logged */
  key: string;
  createdAt: string;
}

/** The one key site tokens are signed with, for every replica of this instance. */
const SITE_TOKEN_KEY_ID = 'site-tokens';

/**
 * What site tokens need from the database: the instance's signing key, and whether the share link
 * a token was minted through is still active (share links are written by their own repository;
 * this only reads them). A token's spaces are read through the structure's repositories.
 */
export class SiteTokenStore {
  constructor(private readonly db: Db) {}

  /**
   * The signing key, created on first use. Replicas starting together may each generate one: the
   * unique `_id` lets exactly one insert win, and every replica then reads the winner's.
   */
  async signingKey(now: string): Promise<Buffer> {
    const keys = this.db.collection<SigningKeyRecord>(COLLECTIONS.signingKeys);
    const existing = await keys.findOne({ _id: SITE_TOKEN_KEY_ID });
    if (existing) return Buffer.from(existing.key, 'base64url');
    try {
      await keys.insertOne({ _id: SITE_TOKEN_KEY_ID, key: randomBytes(32).toString('base64url'), createdAt: now });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const stored = await keys.findOne({ _id: SITE_TOKEN_KEY_ID });
    if (!stored) throw new Error('the site token signing key vanished after its insert');
    return Buffer.from(stored.key, 'base64url');
  }

  /** Whether the share link exists, belongs to the site and is active. */
  async shareLinkIsActive(organizationId: string, siteId: string, shareLinkId: string): Promise<boolean> {
    const link = await this.db
      .collection<ShareLinkRecord & { deletedAt?: string }>(COLLECTIONS.shareLinks)
      .findOne({ _id: shareLinkId, organizationId, siteId, active: true, deletedAt: { $exists: false } }, { projection: { _id: 1 } });
    return link !== null;
  }
}
