import { grpcService, GrpcRegistration } from '@bindery/platform/grpc';
import { webhooksV1 as pb } from '@bindery/shared/contracts';
import type { DeliveryRecord, WebhookRecord } from '@bindery/webhooks/domain';
import { listDeliveries, redeliver } from './deliveries.service';
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, updateWebhook } from './webhooks.service';
import type { WebhooksDeps } from './webhooks-deps';

/** A webhook as answered: never its secret. */
export function webhookMessage(w: WebhookRecord): pb.Webhook {
  return {
    id: w._id,
    organizationId: w.organizationId,
    url: w.url,
    events: w.events,
    active: w.active,
    disabledReason: w.disabledReason,
    description: w.description,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
    createdBy: w.createdBy,
  };
}

export function deliveryMessage(d: DeliveryRecord): pb.Delivery {
  return {
    id: d._id,
    webhookId: d.webhookId,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attempts.map((a) => ({ at: a.at, status: a.status, durationMs: a.durationMs, error: a.error, responseExcerpt: a.responseExcerpt })),
    createdAt: d.createdAt,
    deliveredAt: d.deliveredAt,
    nextAttemptAt: d.nextAttemptAt,
    redeliveryOf: d.redeliveryOf,
  };
}

const pageInfo = (p: { count: number; nextPage?: string }) => ({ count: p.count, nextPage: p.nextPage });

/** WebhooksService: proto ⇄ domain, one use case per call. */
export function webhooksGrpc(deps: WebhooksDeps): GrpcRegistration {
  return grpcService(pb.WebhooksServiceService, {
    async ping(_req, ctx) {
      return { service: 'webhooks', callerUserId: ctx.caller.userId };
    },
    async listWebhooks(req, ctx) {
      const page = await listWebhooks(deps, ctx.caller, req.organizationId, { page: req.page?.page, limit: req.page?.limit });
      return { items: page.items.map(webhookMessage), page: pageInfo(page) };
    },
    async createWebhook(req, ctx) {
      const w = await createWebhook(deps, ctx.caller, req.organizationId, { url: req.url, events: req.events, active: req.active, description: req.description });
      return { webhook: webhookMessage(w), secret: w.secret };
    },
    async getWebhook(req, ctx) {
      return webhookMessage(await getWebhook(deps, ctx.caller, req.organizationId, req.webhookId));
    },
    async updateWebhook(req, ctx) {
      const description = req.description === undefined ? undefined : (req.description.value ?? null);
      const w = await updateWebhook(deps, ctx.caller, req.organizationId, req.webhookId, {
        url: req.url,
        events: req.setEvents ? req.events : undefined,
        active: req.active,
        description,
      });
      return webhookMessage(w);
    },
    async deleteWebhook(req, ctx) {
      return { deleted: await deleteWebhook(deps, ctx.caller, req.organizationId, req.webhookId) };
    },
    async listDeliveries(req, ctx) {
      const page = await listDeliveries(deps, ctx.caller, req.organizationId, req.webhookId, { page: req.page?.page, limit: req.page?.limit });
      return { items: page.items.map(deliveryMessage), page: pageInfo(page) };
    },
    async redeliver(req, ctx) {
      return deliveryMessage(await redeliver(deps, ctx.caller, req.organizationId, req.webhookId, req.deliveryId));
    },
  });
}
