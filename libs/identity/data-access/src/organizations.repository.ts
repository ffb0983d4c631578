import { Db } from 'mongodb';
import { EventEnvelope, outboxOnInsert, withOutbox, withoutOutbox } from '@bindery/platform/events';
import { OrganizationRecord } from '@bindery/identity/domain';
import { COLLECTIONS } from './indexes';

type OrgChanges = Partial<Omit<OrganizationRecord, '_id' | 'outbox' | 'outboxCount' | 'createdAt' | 'createdBy'>>;

export class OrganizationsRepository {
  constructor(private readonly db: Db) {}

  private get col() {
    return this.db.collection<OrganizationRecord>(COLLECTIONS.organizations);
  }

  async insert(org: Omit<OrganizationRecord, 'outbox' | 'outboxCount'>, events: EventEnvelope[]): Promise<OrganizationRecord> {
    const doc: OrganizationRecord = { ...org, ...outboxOnInsert(events) };
    await this.col.insertOne(doc);
    return withoutOutbox(doc) as OrganizationRecord;
  }

  findById(organizationId: string) {
    return this.col.findOne({ _id: organizationId }, { projection: { outbox: 0 } });
  }

  /** Organizations by id, in the order of `ids` (missing ones left out). */
  async findManyByIds(ids: string[]): Promise<OrganizationRecord[]> {
    const docs = await this.col.find({ _id: { $in: ids } }, { projection: { outbox: 0 } }).toArray();
    const byId = new Map(docs.map((d) => [d._id, d]));
    return ids.map((id) => byId.get(id)).filter((d): d is OrganizationRecord => d !== undefined);
  }

  findByEmailDomain(domain: string) {
    return this.col.find({ emailDomains: domain }, { projection: { outbox: 0 } }).sort({ _id: 1 }).limit(1000).toArray();
  }

  /** Applies set/unset changes and records their events in the same write. */
  async update(organizationId: string, set: OrgChanges, unset: Array<keyof OrganizationRecord>, events: EventEnvelope[]) {
    const update: Record<string, unknown> = { $set: set };
    if (unset.length) update.$unset = Object.fromEntries(unset.map((f) => [f, '']));
    // No projection: findAndModify with one is missing from the local MongoDB-wire server.
    const doc = await this.col.findOneAndUpdate({ _id: organizationId }, withOutbox(update, events), { returnDocument: 'after' });
    return doc ? (withoutOutbox(doc) as OrganizationRecord) : null;
  }
}
