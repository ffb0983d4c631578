import { randomBytes } from 'node:crypto';
import { Db } from 'mongodb';
import { isDuplicateKey } from '@bindery/platform/mongo';
import { COLLECTIONS } from './indexes';

interface VisitorKeyRecord {
  /** the site's id: one key per site */
  _id: string;
  organizationId: string;
  /** 256 random bits, base64url: the secret visitor tokens are signed with; never logged */
  key: string;
  createdAt: string;
  updatedAt: string;
}

const newKey = () => randomBytes(32).toString('base64url');

/**
 * The keys sites' visitor tokens are signed with (visitor-tokens.ts in the domain), one per site,
 * made on first need. Removed with their site (SiteDependentsRepository.removeAllOf). No events:
 * a key is a secret and its changes are nobody else's business.
 */
export class VisitorKeysRepository {
  constructor(private readonly db: Db) {}

  private get keys() {
    return this.db.collection<VisitorKeyRecord>(COLLECTIONS.visitorKeys);
  }

  /** The site's key, or undefined while it has none (no visitor token can then be valid). */
  async get(organizationId: string, siteId: string): Promise<string | undefined> {
    return (await this.keys.findOne({ _id: siteId, organizationId }, { projection: { key: 1 } }))?.key;
  }

  /**
   * The site's key, made now when it has none. Two first reads racing each insert one: the unique
   * `_id` lets exactly one win, and both answer the winner's.
   */
  async getOrCreate(organizationId: string, siteId: string, now: string): Promise<string> {
    const existing = await this.get(organizationId, siteId);
    if (existing) return existing;
    try {
      await this.keys.insertOne({ _id: siteId, organizationId, key: newKey(), createdAt: now, updatedAt: now });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const stored = await this.get(organizationId, siteId);
    if (!stored) throw new Error('the visitor key vanished after its insert');
    return stored;
  }

  /** A new key for the site (made when it had none); the old one stops verifying at once. */
  async regenerate(organizationId: string, siteId: string, now: string): Promise<string> {
    const key = newKey();
    try {
      await this.keys.updateOne({ _id: siteId, organizationId }, { $set: { key, updatedAt: now }, $setOnInsert: { createdAt: now } }, { upsert: true });
    } catch (err) {
      // a concurrent first upsert of the same site won: write over it (the last regeneration wins)
      if (!isDuplicateKey(err)) throw err;
      await this.keys.updateOne({ _id: siteId, organizationId }, { $set: { key, updatedAt: now } });
    }
    return key;
  }
}
