import { ClientSession, Db } from 'mongodb';
import { EventEnvelope } from '@bindery/platform/events';
import { isDuplicateKey, Repository, updateIfVersion, versionOf } from '@bindery/platform/mongo';
import { conflict } from '@bindery/platform/errors';
import { OrganizationRecord } from '@bindery/identity/domain';
import { COLLECTIONS } from './indexes';

type OrgChanges = Partial<Omit<OrganizationRecord, '_id' | 'createdAt' | 'createdBy'>>;

export class OrganizationsRepository extends Repository<OrganizationRecord> {
  constructor(db: Db, eventsRecorded?: () => void) {
    super(db, COLLECTIONS.organizations, eventsRecorded);
  }

  async insert(org: OrganizationRecord, events: EventEnvelope[], session?: ClientSession): Promise<OrganizationRecord> {
    try {
      return await this.insertRecord(org, events, session);
    } catch (err) {
      throw uniquenessConflict(err, org);
    }
  }

  /**
   * The version of the organization's admin roster, read at the start of a change that could take
   * its last admin away; null when the organization does not exist.
   */
  async rosterVersion(organizationId: string, session: ClientSession): Promise<number | null> {
    const doc = await this.findOne({ _id: organizationId }, { projection: { version: 1 }, session });
    return doc ? versionOf(doc) : null;
  }

  /** Raises the roster version if it is still `read`; false when another change came first. */
  bumpRosterVersion(organizationId: string, read: number, session: ClientSession): Promise<boolean> {
    return updateIfVersion(this.collection, organizationId, read, {}, session);
  }

  findById(organizationId: string) {
    return this.findOne({ _id: organizationId });
  }

  /** Organizations by id, in the order of `ids` (missing ones left out). */
  async findManyByIds(ids: string[]): Promise<OrganizationRecord[]> {
    const docs = await this.findMany({ _id: { $in: ids } });
    const byId = new Map(docs.map((d) => [d._id, d]));
    return ids.map((id) => byId.get(id)).filter((d): d is OrganizationRecord => d !== undefined);
  }

  findByEmailDomain(domain: string) {
    return this.findMany({ emailDomains: domain }, { sort: { _id: 1 }, limit: 1000 });
  }

  /** Applies set/unset changes and records their events in the same write. */
  async update(organizationId: string, set: OrgChanges, unset: Array<keyof OrganizationRecord>, events: EventEnvelope[]) {
    const update: Record<string, unknown> = { $set: set };
    if (unset.length) update.$unset = Object.fromEntries(unset.map((f) => [f, '']));
    try {
      return await this.updateRecord({ _id: organizationId }, update, events);
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
