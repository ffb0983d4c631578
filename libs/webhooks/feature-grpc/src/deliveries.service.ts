import { notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { newSortableId } from '@bindery/shared/ids';
import { decodeCursor, resolveLimit, toPage } from '@bindery/shared/pagination';
import type { DeliveryRecord } from '@bindery/webhooks/domain';
import { enqueueDelivery } from './dispatch';
import { getWebhook } from './webhooks.service';
import type { WebhooksDeps } from './webhooks-deps';

/** A webhook's deliveries, newest first, each with its attempts (organization admins). */
export async function listDeliveries(deps: WebhooksDeps, caller: Caller, organizationId: string, webhookId: string, page: { page?: string; limit?: number }) {
  await getWebhook(deps, caller, organizationId, webhookId);
  const limit = resolveLimit(page.limit);
  const [rows, count] = await Promise.all([deps.deliveries.page(webhookId, limit, decodeCursor(page.page)), deps.deliveries.count(webhookId)]);
  return toPage(
    rows,
    limit,
    count,
    (r) => ({ k: r.createdAt, id: r._id }),
    (r) => r,
  );
}

/**
 * Sends a delivery's payload again as a new delivery (same event id, so a receiver can tell), queued
 * behind whatever the webhook still has to send about that resource. An inactive webhook's
 * redelivery is recorded and skipped, like any of its deliveries.
 */
export async function redeliver(deps: WebhooksDeps, caller: Caller, organizationId: string, webhookId: string, deliveryId: string): Promise<DeliveryRecord> {
  await getWebhook(deps, caller, organizationId, webhookId);
  const original = await deps.deliveries.get(webhookId, deliveryId);
  if (!original) throw notFound('Delivery');
  const now = deps.clock();
  const copy: DeliveryRecord = {
    _id: newSortableId(now),
    webhookId,
    organizationId,
    queue: original.queue,
    eventId: original.eventId,
    eventType: original.eventType,
    payload: original.payload,
    status: 'queued',
    attempts: [],
    createdAt: new Date(now).toISOString(),
    redeliveryOf: original._id,
  };
  await deps.transaction((s) => enqueueDelivery(deps, copy, s));
  return (await deps.deliveries.get(webhookId, copy._id)) ?? copy;
}
