import { ClientSession, Db } from 'mongodb';
import type { EventEnvelope } from '@bindery/platform/events';
import { Repository } from '@bindery/platform/mongo';
import type { WebhookRecord } from '@bindery/webhooks/domain';
import { COLLECTIONS } from './indexes';

/** An organization's webhooks; a deleted one is left out of every read. */
export class WebhooksRepository extends Repository<WebhookRecord> {
  constructor(db: Db, eventsRecorded?: () => void) {
    super(db, COLLECTIONS.webhooks, eventsRecorded, { softDeleteField: 'deletedAt' });
  }

  insert(record: WebhookRecord, events: EventEnvelope[]) {
    return this.insertRecord(record, events);
  }

  get(organizationId: string, id: string, session?: ClientSession) {
    return this.findOne({ _id: id, organizationId }, { session });
  }

  /** The webhook with its secret, for signing (a delivery knows its webhook by id). */
  byId(id: string, session?: ClientSession) {
    return this.findOne({ _id: id }, { session });
  }

  /** The organization's active webhooks that want `eventType`. */
  subscribedTo(organizationId: string, eventType: string, session?: ClientSession) {
    return this.findMany({ organizationId, active: true, events: eventType }, { session } as never);
  }

  /** The active webhooks of these organizations (a batch of events): one read for all of them. */
  activeOf(organizationIds: readonly string[], session?: ClientSession) {
    return this.findMany({ organizationId: { $in: [...organizationIds] }, active: true }, { session } as never);
  }

  /** A page of the organization's webhooks, oldest first, after the cursor (createdAt, id). */
  page(organizationId: string, limit: number, after?: { k?: string | number; id: string }) {
    return this.keysetPage({ organizationId }, { key: 'createdAt', after, limit });
  }

  count(organizationId: string) {
    return this.countWhere({ organizationId });
  }

  update(organizationId: string, id: string, set: Partial<WebhookRecord>, unset: Array<keyof WebhookRecord>, events: EventEnvelope[]) {
    const update = { $set: set, ...(unset.length ? { $unset: Object.fromEntries(unset.map((k) => [k, ''])) } : {}) };
    return this.updateRecord({ _id: id, organizationId }, update as never, events);
  }

  /** Disables an active webhook with a reason; false when it was not active any more. */
  disable(id: string, reason: string, at: string, events: EventEnvelope[], session?: ClientSession) {
    return this.updateMatched({ _id: id, active: true }, { $set: { active: false, disabledReason: reason, updatedAt: at } }, events, { session });
  }

  remove(organizationId: string, id: string, at: string, events: EventEnvelope[]) {
    return this.softDeleteRecord({ _id: id, organizationId }, at, events, { $set: { updatedAt: at, active: false } });
  }
}
