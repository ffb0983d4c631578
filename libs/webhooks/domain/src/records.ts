/** What the webhooks service stores. Times are ISO 8601 UTC strings. */

export interface WebhookRecord {
  _id: string;
  organizationId: string;
  url: string;
  /** the public event types it is sent (WEBHOOK_EVENT_TYPES) */
  events: string[];
  active: boolean;
  /** the HMAC key of its signatures; answered once, when the webhook is created */
  secret: string;
  description?: string;
  /** set when Bindery disabled it (a day of failed deliveries) */
  disabledReason?: string;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

export type DeliveryStatus = 'queued' | 'pending' | 'delivered' | 'failed' | 'skipped';

export interface DeliveryAttemptRecord {
  at: string;
  /** 0: no HTTP answer */
  status: number;
  durationMs: number;
  error?: string;
  responseExcerpt?: string;
}

/**
 * One event for one webhook. Deliveries of one webhook about one resource (`queue`) are sent one at a
 * time, in the order of their events: a delivery waits `queued` until the one before it is done.
 */
export interface DeliveryRecord {
  _id: string;
  webhookId: string;
  organizationId: string;
  /** `<webhookId>/<resource kind>/<resource id>` */
  queue: string;
  /** its place in the queue (1, 2, …): deliveries of a queue are sent in this order */
  seq?: number;
  eventId: string;
  eventType: string;
  /** the JSON body sent, as an object (serialised the same way on every attempt) */
  payload: Record<string, unknown>;
  status: DeliveryStatus;
  attempts: DeliveryAttemptRecord[];
  createdAt: string;
  deliveredAt?: string;
  nextAttemptAt?: string;
  redeliveryOf?: string;
  /** `<webhookId>/<eventId>` on a delivery made from an event (unique), absent on a redelivery */
  once?: string;
  /** the run sending it, once it is pending */
  runId?: string;
}

/** A queue's turn: whether one of its deliveries is pending (being sent or waiting for a retry). */
export interface DeliveryQueueRecord {
  _id: string;
  busy: boolean;
  /** the last sequence number given */
  seq: number;
  updatedAt: string;
}

export const queueOf = (webhookId: string, resource: { object: string; id: string }) => `${webhookId}/${resource.object}/${resource.id}`;
