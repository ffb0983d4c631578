import { Db } from 'mongodb';
import { EventEnvelope, outboxOnInsert, withOutbox, withoutOutbox } from '@bindery/platform/events';
import { LinkInviteRecord, linkInviteDocId, RoleOrGuest } from '@bindery/identity/domain';
import { Cursor, keysetFilter } from '@bindery/shared/pagination';
import { COLLECTIONS } from './indexes';

const LIVE = { deletedAt: { $exists: false } };

/**
 * Invite links, keyed by `<organizationId>:<ref>` where `ref` is derived from the invite id by the
 * caller: lookups by id are primary-key lookups and uniqueness comes from the primary key.
 */
export class LinkInvitesRepository {
  constructor(private readonly db: Db) {}

  private get col() {
    return this.db.collection<LinkInviteRecord>(COLLECTIONS.linkInvites);
  }

  async insert(invite: Omit<LinkInviteRecord, 'outbox' | 'outboxCount'>, events: EventEnvelope[]): Promise<LinkInviteRecord> {
    const doc: LinkInviteRecord = { ...invite, ...outboxOnInsert(events) };
    await this.col.insertOne(doc);
    return withoutOutbox(doc) as LinkInviteRecord;
  }

  /** The live invite, or null when absent or deleted. */
  find(organizationId: string, ref: string) {
    return this.col.findOne({ _id: linkInviteDocId(organizationId, ref), organizationId, ...LIVE }, { projection: { outbox: 0 } });
  }

  /** The organization's live invites in creation order, after `cursor`; `limit + 1` rows. */
  list(organizationId: string, cursor: Cursor | undefined, limit: number) {
    return this.col
      .find({ organizationId, ...LIVE, ...keysetFilter(cursor, 'createdAt') }, { projection: { outbox: 0 } })
      .sort({ createdAt: 1, _id: 1 })
      .limit(limit + 1)
      .toArray();
  }

  count(organizationId: string) {
    return this.col.countDocuments({ organizationId, ...LIVE });
  }

  /** Sets the role and records the events in the same write; null when absent or deleted. */
  async updateRole(organizationId: string, ref: string, role: RoleOrGuest, at: string, events: EventEnvelope[]) {
    return this.col.findOneAndUpdate(
      { _id: linkInviteDocId(organizationId, ref), organizationId, ...LIVE },
      withOutbox({ $set: { role, updatedAt: at } }, events),
      { returnDocument: 'after', projection: { outbox: 0 } },
    );
  }

  /**
   * Soft deletion with its event in the same write (the document may hold events the relay has not
   * sent). The invite id goes at once: a deleted invite keeps no secret. False when already gone.
   */
  async softDelete(organizationId: string, ref: string, at: string, events: EventEnvelope[]): Promise<boolean> {
    const r = await this.col.updateOne(
      { _id: linkInviteDocId(organizationId, ref), organizationId, ...LIVE },
      withOutbox({ $set: { deletedAt: at, updatedAt: at }, $unset: { secret: '' } }, events),
    );
    return r.matchedCount === 1;
  }
}
