import { OUTBOX_INDEX } from '@bindery/platform/events';
import { IndexPlan } from '@bindery/platform/mongo';

export const COLLECTIONS = {
  webhooks: 'webhooks',
  deliveries: 'deliveries',
  queues: 'delivery_queues',
} as const;

/** Collections whose documents carry outbox events for the relay. */
export const OUTBOX_COLLECTIONS = [COLLECTIONS.webhooks];

/** One index per query path. */
export const WEBHOOKS_INDEXES: IndexPlan = {
  [COLLECTIONS.webhooks]: [
    // the list of an organization's webhooks, and those an event of the organization goes to
    { key: { organizationId: 1, createdAt: 1, _id: 1 }, name: 'by_organization' },
    OUTBOX_INDEX,
  ],
  [COLLECTIONS.deliveries]: [
    // a webhook's deliveries, newest first
    { key: { webhookId: 1, createdAt: -1, _id: -1 }, name: 'by_webhook' },
    // the next delivery of a queue, in the order of its events
    { key: { queue: 1, status: 1, seq: 1 }, name: 'by_queue' },
    // the deliveries being sent (runs that ended without them are looked for among these), by webhook
    // (those waiting for a retry are made due when a delivery to their webhook succeeds)
    { key: { status: 1, webhookId: 1, nextAttemptAt: 1 }, name: 'pending', partialFilterExpression: { status: 'pending' } },
    // one delivery per event and webhook (a redelivered Kafka event is recorded once); redeliveries have no `once`
    { key: { once: 1 }, name: 'one_per_event', unique: true, partialFilterExpression: { once: { $exists: true } } },
  ],
  [COLLECTIONS.queues]: [],
};
