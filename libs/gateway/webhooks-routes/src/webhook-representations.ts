import { webhooksV1 as pb } from '@bindery/shared/contracts';

export interface Urls {
  publicUrl: string;
}

export function webhookJson(w: pb.Webhook, urls: Urls) {
  return {
    object: 'webhook',
    id: w.id,
    url: w.url,
    events: w.events,
    active: w.active,
    ...(w.disabledReason ? { disabledReason: w.disabledReason } : {}),
    ...(w.description ? { description: w.description } : {}),
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
    urls: { location: `${urls.publicUrl}/v1/orgs/${encodeURIComponent(w.organizationId)}/webhooks/${encodeURIComponent(w.id)}` },
  };
}

export function deliveryJson(d: pb.Delivery) {
  return {
    object: 'webhook-delivery',
    id: d.id,
    webhook: d.webhookId,
    event: d.eventId,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attempts.map((a) => ({
      at: a.at,
      status: a.status,
      durationMs: a.durationMs,
      ...(a.error ? { error: a.error } : {}),
      ...(a.responseExcerpt ? { responseExcerpt: a.responseExcerpt } : {}),
    })),
    createdAt: d.createdAt,
    ...(d.deliveredAt ? { deliveredAt: d.deliveredAt } : {}),
    ...(d.redeliveryOf ? { redeliveryOf: d.redeliveryOf } : {}),
  };
}
