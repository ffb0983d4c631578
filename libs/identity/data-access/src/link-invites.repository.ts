import { Db } from 'mongodb';
import { EventEnvelope } from '@bindery/platform/events';
import { Repository } from '@bindery/platform/mongo';
import { LinkInviteRecord, linkInviteDocId, RoleOrGuest } from '@bindery/identity/domain';
import { Cursor } from '@bindery/shared/pagination';
import { COLLECTIONS } from './indexes';

/**
 * Invite links, keyed by `<organizationId>:<ref>` where `ref` is derived from the invite id by the
 * caller: lookups by id are primary-key lookups and uniqueness comes from the primary key. Deleted
 * invites are soft-deleted (`deletedAt`) and left out of every read.
 */
export class LinkInvitesRepository extends Repository<LinkInviteRecord> {
  constructor(db: Db, eventsRecorded?: () => void) {
    super(db, COLLECTIONS.linkInvites, eventsRecorded, { softDeleteField: 'deletedAt' });
  }

  insert(invite: LinkInviteRecord, events: EventEnvelope[]): Promise<LinkInviteRecord> {
    return this.insertRecord(invite, events);
  }

  /** The live invite, or null when absent or deleted. */
  find(organizationId: string, ref: string) {
    return this.findOne({ _id: linkInviteDocId(organizationId, ref), organizationId });
  }

  /** The organization's live invites in creation order, after `cursor`; `limit + 1` rows. */
  list(organizationId: string, cursor: Cursor | undefined, limit: number) {
    return this.keysetPage({ organizationId }, { key: 'createdAt', after: cursor, limit });
  }

  count(organizationId: string) {
    return this.countWhere({ organizationId });
  }

  /** Sets the role and records the events in the same write; null when absent or deleted. */
  updateRole(organizationId: string, ref: string, role: RoleOrGuest, at: string, events: EventEnvelope[]) {
    return this.updateRecord({ _id: linkInviteDocId(organizationId, ref), organizationId }, { $set: { role, updatedAt: at } }, events);
  }

  /** Soft deletion with its event; the secret goes at once (a deleted invite keeps none). False when already gone. */
  softDelete(organizationId: string, ref: string, at: string, events: EventEnvelope[]): Promise<boolean> {
    return this.softDeleteRecord({ _id: linkInviteDocId(organizationId, ref), organizationId }, at, events, { $set: { updatedAt: at }, $unset: { secret: '' } });
  }
}
