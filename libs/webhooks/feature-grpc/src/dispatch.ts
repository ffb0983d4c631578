import type { ClientSession } from '@bindery/platform/mongo';
import { newSortableId } from '@bindery/shared/ids';
import { WebhookEvent, webhookPayload } from '@bindery/webhooks/client';
import { DeliveryRecord, queueOf } from '@bindery/webhooks/domain';
import { DELIVER_MAX_ATTEMPTS, DELIVER_RUN, nowOf, WebhooksDeps } from './webhooks-deps';

/**
 * Hands a queue's turn to its next delivery (a run is enqueued to send it) or, when none waits, frees
 * the queue. In the transaction that ended the previous delivery or recorded this one: both write the
 * queue's document, so two such transactions never miss each other.
 */
export async function startOrQueue(deps: WebhooksDeps, delivery: Pick<DeliveryRecord, '_id' | 'organizationId'>, session: ClientSession): Promise<void> {
  const { run } = await deps.runs.enqueue(
    { kind: DELIVER_RUN, input: { deliveryId: delivery._id }, organizationId: delivery.organizationId, maxAttempts: DELIVER_MAX_ATTEMPTS },
    session,
  );
  await deps.deliveries.markPending(delivery._id, run._id, session);
}

export async function handOnTurn(deps: WebhooksDeps, queue: string, session: ClientSession): Promise<void> {
  const next = await deps.deliveries.nextQueued(queue, session);
  if (next) await startOrQueue(deps, next, session);
  else await deps.deliveries.releaseTurn(queue, nowOf(deps), session);
}

/** A delivery of `event` to a webhook, queued (its place in the queue is taken when it is recorded). */
export function newDelivery(webhookId: string, event: WebhookEvent, sourceId: string, payload: DeliveryRecord['payload'], now: number): DeliveryRecord {
  return {
    _id: newSortableId(now),
    webhookId,
    organizationId: event.organizationId,
    queue: queueOf(webhookId, event.resource),
    eventId: sourceId,
    once: `${webhookId}/${sourceId}`,
    eventType: event.type,
    payload,
    status: 'queued',
    attempts: [],
    createdAt: new Date(now).toISOString(),
  };
}

/** Queues a delivery: sent at once when its queue is idle, else after the deliveries before it. */
export async function enqueueDelivery(deps: WebhooksDeps, delivery: DeliveryRecord, session: ClientSession): Promise<void> {
  if (delivery.once && (await deps.deliveries.recorded(delivery.once, session))) return;
  const { seq, idle } = await deps.deliveries.takePlace(delivery.queue, delivery.createdAt, session);
  await deps.deliveries.add({ ...delivery, seq }, session);
  if (idle) await startOrQueue(deps, delivery, session);
}

/**
 * One delivery per active webhook of the event's organization that asked for its type, recorded in
 * the consumer's transaction (applied once: a redelivered Kafka event adds nothing).
 */
export async function recordDeliveries(deps: WebhooksDeps, event: WebhookEvent, source: { id: string; time: string }, session: ClientSession | undefined): Promise<number> {
  const work = async (s: ClientSession) => {
    const webhooks = await deps.webhooks.subscribedTo(event.organizationId, event.type, s);
    const payload = webhookPayload(event, source.id, source.time, deps.publicUrl);
    for (const webhook of webhooks) {
      const now = deps.clock();
      await enqueueDelivery(deps, newDelivery(webhook._id, event, source.id, payload, now), s);
    }
    return webhooks.length;
  };
  return session ? work(session) : deps.transaction(work);
}
