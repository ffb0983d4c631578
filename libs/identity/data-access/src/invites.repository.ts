import { ClientSession, Db } from 'mongodb';
import { EventEnvelope } from '@bindery/platform/events';
import { Repository } from '@bindery/platform/mongo';
import { InviteRecord, inviteId } from '@bindery/identity/domain';
import { COLLECTIONS } from './indexes';

export class InvitesRepository extends Repository<InviteRecord> {
  constructor(db: Db, eventsRecorded?: () => void) {
    super(db, COLLECTIONS.invites, eventsRecorded);
  }

  /** Creates the pending invite, or updates its role if the address was invited before. */
  async upsert(invite: Omit<InviteRecord, '_id'>, events: EventEnvelope[]): Promise<void> {
    const { role, sso, invitedBy, ...identity } = invite;
    await this.updateRecord(
      { _id: inviteId(invite.organizationId, invite.email) },
      { $set: { role, sso, invitedBy }, $unset: { acceptedAt: '' }, $setOnInsert: identity },
      events,
      { upsert: true },
    );
  }

  pendingFor(email: string, session?: ClientSession) {
    return this.findMany({ email, acceptedAt: { $exists: false } }, { limit: 1000, session });
  }

  /**
   * Marks the invite used. Not a delete: the document may still hold events the relay has not sent,
   * and an acknowledged change never loses its events.
   */
  async markAccepted(organizationId: string, email: string, at: string, session?: ClientSession): Promise<void> {
    await this.updateMatched({ _id: inviteId(organizationId, email) }, { $set: { acceptedAt: at } }, [], { session });
  }
}
