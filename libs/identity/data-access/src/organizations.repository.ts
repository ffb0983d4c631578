import { ClientSession, Db } from 'mongodb';
import { EventEnvelope, outboxOnInsert, withOutbox, withoutOutbox } from '@bindery/platform/events';
import { isDuplicateKey, updateIfVersion, versionOf } from '@bindery/platform/mongo';
import { conflict } from '@bindery/platform/errors';
import { OrganizationRecord } from '@bindery/identity/domain';
import { COLLECTIONS } from './indexes';

type OrgChanges = Partial<Omit<OrganizationRecord, '_id' | 'outbox' | 'outboxCount' | 'createdAt' | 'createdBy'>>;

export class OrganizationsRepository {
  constructor(private readonly db: Db) {}

  private get col() {
    return this.db.collection<OrganizationRecord>(COLLECTIONS.organizations);
  }

  async insert(org: Omit<OrganizationRecord, 'outbox' | 'outboxCount'>, events: EventEnvelope[], session?: ClientSession): Promise<OrganizationRecord> {
    const doc: OrganizationRecord = { ...org, ...outboxOnInsert(events) };
    try {
      await this.col.insertOne(doc, { session });
    } catch (err) {
      throw uniquenessConflict(err, doc);
    }
    return withoutOutbox(doc) as OrganizationRecord;
  }

  /**
   * The version of the organization's admin roster, read at the start of a change that could take
   * its last admin away; null when the organization does not exist.
   */
  async rosterVersion(organizationId: string, session: ClientSession): Promise<number | null> {
    const doc = await this.col.findOne({ _id: organizationId }, { projection: { version: 1 }, session });
    return doc ? versionOf(doc) : null;
  }

  /** Raises the roster version if it is still `read`; false when another change came first. */
  bumpRosterVersion(organizationId: string, read: number, session: ClientSession): Promise<boolean> {
    return updateIfVersion(this.col, organizationId, read, {}, session);
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
    try {
      return await this.col.findOneAndUpdate({ _id: organizationId }, withOutbox(update, events), { returnDocument: 'after', projection: { outbox: 0 } });
    } catch (err) {
      throw uniquenessConflict(err, set);
    }
  }
}

/** A duplicate hostname or e-mail domain (unique indexes) as the 409 a caller can act on. */
function uniquenessConflict(err: unknown, fields: Partial<OrganizationRecord>): unknown {
  if (!isDuplicateKey(err)) return err;
  const index = String((err as { message?: string }).message ?? '');
  if (index.includes('hostname_unique')) return conflict(`The hostname "${fields.hostname}" is already taken.`);
  if (index.includes('email_domain_unique')) return conflict('One of these e-mail domains is already used by another organization.');
  return err;
}
