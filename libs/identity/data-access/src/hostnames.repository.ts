import { Db } from 'mongodb';
import { conflict } from '@bindery/platform/errors';
import { isDuplicateKey } from '@bindery/platform/mongo';
import { COLLECTIONS } from './indexes';

interface HostnameClaim {
  /** the hostname itself: its uniqueness is the primary key's */
  _id: string;
  organizationId: string;
}

/**
 * Organization hostnames are unique across the instance. A claim document per hostname gives that
 * uniqueness without a partial index (the local MongoDB-wire server has none). Claim the new name
 * before pointing the organization at it, release the old one after; a claim left behind by a crash
 * is recognised because its organization no longer uses it, and can be taken over.
 */
export class HostnamesRepository {
  constructor(private readonly db: Db) {}

  private get col() {
    return this.db.collection<HostnameClaim>(COLLECTIONS.hostnames);
  }

  async claim(hostname: string, organizationId: string, stillUsedBy: (orgId: string) => Promise<boolean>): Promise<void> {
    try {
      await this.col.insertOne({ _id: hostname, organizationId });
      return;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const existing = await this.col.findOne({ _id: hostname });
    if (!existing || existing.organizationId === organizationId) return;
    if (await stillUsedBy(existing.organizationId)) throw conflict(`The hostname "${hostname}" is already taken.`);
    const taken = await this.col.updateOne({ _id: hostname, organizationId: existing.organizationId }, { $set: { organizationId } });
    if (taken.modifiedCount !== 1) throw conflict(`The hostname "${hostname}" is already taken.`);
  }

  async release(hostname: string, organizationId: string): Promise<void> {
    await this.col.deleteOne({ _id: hostname, organizationId });
  }
}
