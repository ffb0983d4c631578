import type { ClientSession, Db } from 'mongodb';
import { COLLECTIONS } from './indexes';

interface OrganizationAddressDoc {
  /** the organization's id */
  _id: string;
  hostname?: string;
  /** the version (`<time>|<event id>`) of the event that last set the hostname */
  v: string;
}

/**
 * Each organization's hostname, copied from identity's events (`identity.organization.updated`
 * carries it): the organization's part of its sites' published URLs. An organization absent here
 * (none of its events carried a hostname yet) is named by its id.
 */
export class OrganizationAddressesRepository {
  constructor(private readonly db: Db) {}

  private get collection() {
    return this.db.collection<OrganizationAddressDoc>(COLLECTIONS.organizations);
  }

  /**
   * Sets the organization's hostname (undefined: none) unless a newer event set it already; answers
   * whether the hostname is now another than before. The document is made to exist first and then
   * updated conditionally: a conditional upsert that misses a newer document would fail with a
   * duplicate key and abort the consumer's transaction.
   */
  async apply(organizationId: string, hostname: string | undefined, v: string, session?: ClientSession): Promise<boolean> {
    await this.collection.updateOne({ _id: organizationId }, { $setOnInsert: { v: '' } }, { upsert: true, session });
    const update = hostname ? { $set: { hostname, v } } : { $set: { v }, $unset: { hostname: '' as const } };
    const before = await this.collection.findOneAndUpdate({ _id: organizationId, v: { $lt: v } }, update, { session, returnDocument: 'before' });
    return !!before && before.hostname !== hostname;
  }

  async hostnameOf(organizationId: string): Promise<string | undefined> {
    return (await this.collection.findOne({ _id: organizationId }))?.hostname;
  }

  /** The organization with that hostname (the one set last, should events of two still cross). */
  async byHostname(hostname: string): Promise<string | undefined> {
    const [doc] = await this.collection.find({ hostname }).sort({ v: -1 }).limit(1).toArray();
    return doc?._id;
  }
}
