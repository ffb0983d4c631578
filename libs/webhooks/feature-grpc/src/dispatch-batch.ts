import type { ClientSession } from '@bindery/platform/mongo';
import { WebhookEvent, webhookPayload } from '@bindery/webhooks/client';
import { DeliveryRecord } from '@bindery/webhooks/domain';
import { newDelivery, startOrQueue } from './dispatch';
import type { WebhooksDeps } from './webhooks-deps';

/** One public event of a fetched batch, with the id and time of the service event it comes from. */
export interface SourcedEvent {
  event: WebhookEvent;
  source: { id: string; time: string };
}

/**
 * The deliveries of a batch of events (in partition order), in the consumer's one transaction: what
 * `recordDeliveries` does for each, in a few writes. One read of the organizations' active webhooks,
 * one of the deliveries recorded already (a batch redelivered), one place-taking per queue, one
 * insert of all deliveries, and a run for the first delivery of each queue that was idle. Within a
 * queue the sequence numbers follow the events' order.
 */
export async function recordDeliveryBatch(deps: WebhooksDeps, items: readonly SourcedEvent[], session: ClientSession): Promise<number> {
  if (!items.length) return 0;
  const orgs = [...new Set(items.map((i) => i.event.organizationId))];
  const webhooks = await deps.webhooks.activeOf(orgs, session);
  const planned: DeliveryRecord[] = [];
  for (const { event, source } of items) {
    const wanted = webhooks.filter((w) => w.organizationId === event.organizationId && w.events.includes(event.type));
    if (!wanted.length) continue;
    const payload = webhookPayload(event, source.id, source.time, deps.publicUrl);
    for (const webhook of wanted) {
      const now = deps.clock();
      planned.push(newDelivery(webhook._id, event, source.id, payload, now));
    }
  }
  const recorded = await deps.deliveries.recordedAmong(
    planned.map((d) => d.once!),
    session,
  );
  const seen = new Set<string>();
  const fresh = planned.filter((d) => !recorded.has(d.once!) && !seen.has(d.once!) && !!seen.add(d.once!));
  if (!fresh.length) return 0;
  const byQueue = new Map<string, DeliveryRecord[]>();
  for (const d of fresh) byQueue.set(d.queue, [...(byQueue.get(d.queue) ?? []), d]);
  const starts: DeliveryRecord[] = [];
  const numbered: DeliveryRecord[] = [];
  for (const [queue, deliveries] of byQueue) {
    const { first, idle } = await deps.deliveries.takePlaces(queue, deliveries.length, deliveries[0].createdAt, session);
    deliveries.forEach((d, i) => numbered.push({ ...d, seq: first + i }));
    if (idle) starts.push(deliveries[0]);
  }
  await deps.deliveries.addMany(numbered, session);
  for (const d of starts) await startOrQueue(deps, d, session);
  return fresh.length;
}
