import { Db } from 'mongodb';
import { EventEnvelope, withOutbox } from '@bindery/platform/events';
import { InviteRecord, inviteId } from '@bindery/identity/domain';
import { COLLECTIONS } from './indexes';

export class InvitesRepository {
  constructor(private readonly db: Db) {}

  private get col() {
    return this.db.collection<InviteRecord>(COLLECTIONS.invites);
  }

  /** Creates the pending invite, or updates its role if the address was invited before. */
  async upsert(invite: Omit<InviteRecord, '_id' | 'outbox' | 'outboxCount'>, events: EventEnvelope[]): Promise<void> {
    const { role, sso, invitedBy, ...identity } = invite;
    await this.col.updateOne(
      { _id: inviteId(invite.organizationId, invite.email) },
      withOutbox({ $set: { role, sso, invitedBy }, $unset: { acceptedAt: '' }, $setOnInsert: identity }, events),
      { upsert: true },
    );
  }

  pendingFor(email: string) {
    return this.col.find({ email, acceptedAt: { $exists: false } }, { projection: { outbox: 0 } }).limit(1000).toArray();
  }

  /**
   * Marks the invite used. Not a delete: the document may still hold events the relay has not sent,
   * and an acknowledged change never loses its events.
   */
  async markAccepted(organizationId: string, email: string, at: string): Promise<void> {
    await this.col.updateOne({ _id: inviteId(organizationId, email) }, { $set: { acceptedAt: at } });
  }
}
