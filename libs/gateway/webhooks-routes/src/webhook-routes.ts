import { LIST_QUERY, pageOf, RouteSpec, toList } from '@bindery/gateway/http';
import type { WebhooksClients } from '@bindery/webhooks/client';
import { CREATE_WEBHOOK, CREATED_WEBHOOK, DELIVERY, DELIVERY_LIST, DELIVERY_PARAMS, ORG_PARAM, UPDATE_WEBHOOK, WEBHOOK, WEBHOOK_LIST, WEBHOOK_PARAMS } from './webhook-schemas';
import { deliveryJson, Urls, webhookJson } from './webhook-representations';

const ADMINS = ' Organization administrators only: other members get 403, anyone outside the organization 404.';

interface WebhookBody {
  url?: string;
  events?: string[];
  active?: boolean;
  description?: string | null;
}

/** /v1/orgs/{organizationId}/webhooks…: Bindery's outgoing webhooks (docs/webhooks.md). */
export function webhookRoutes(clients: WebhooksClients, urls: Urls): RouteSpec[] {
  const { webhooks } = clients;
  return [
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/webhooks',
      operationId: 'listWebhooks',
      summary: "List the organization's webhooks",
      description: `Bindery's own operation (the GitBook API has no webhooks).${ADMINS}`,
      tags: ['webhooks'],
      params: ORG_PARAM,
      query: LIST_QUERY,
      success: { status: 200, description: 'A page of webhooks (never their secrets)', schema: WEBHOOK_LIST },
      async handler({ caller, deadline, params, query }) {
        const r = await webhooks.listWebhooks({ organizationId: params.organizationId, page: pageOf(query) }, { caller, deadline });
        return {
          body: toList(
            r.items.map((w) => webhookJson(w, urls)),
            r.page,
          ),
        };
      },
    },
    {
      method: 'post',
      path: '/v1/orgs/:organizationId/webhooks',
      operationId: 'createWebhook',
      summary: 'Create a webhook; its signing secret is in this answer only',
      description: `Deliveries are POSTed as JSON, signed in \`X-Bindery-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">\` with the secret.${ADMINS}`,
      tags: ['webhooks'],
      params: ORG_PARAM,
      body: CREATE_WEBHOOK,
      success: { status: 201, description: 'The webhook, with its secret', schema: CREATED_WEBHOOK },
      async handler({ caller, deadline, params, body }) {
        const b = body as WebhookBody & { url: string; events: string[] };
        const created = await webhooks.createWebhook(
          { organizationId: params.organizationId, url: b.url, events: b.events, active: b.active, description: b.description ?? undefined },
          { caller, deadline },
        );
        const out = { ...webhookJson(created.webhook!, urls), secret: created.secret };
        return { status: 201, body: out, headers: { Location: out.urls.location } };
      },
    },
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/webhooks/:webhookId',
      operationId: 'getWebhook',
      summary: 'Get a webhook',
      description: `Never its secret.${ADMINS}`,
      tags: ['webhooks'],
      params: WEBHOOK_PARAMS,
      success: { status: 200, description: 'The webhook', schema: WEBHOOK },
      async handler({ caller, deadline, params }) {
        return { body: webhookJson(await webhooks.getWebhook({ organizationId: params.organizationId, webhookId: params.webhookId }, { caller, deadline }), urls) };
      },
    },
    {
      method: 'patch',
      path: '/v1/orgs/:organizationId/webhooks/:webhookId',
      operationId: 'updateWebhook',
      summary: 'Change a webhook (turning it on again clears why Bindery turned it off)',
      description: ADMINS.trim(),
      tags: ['webhooks'],
      params: WEBHOOK_PARAMS,
      body: UPDATE_WEBHOOK,
      success: { status: 200, description: 'The webhook', schema: WEBHOOK },
      async handler({ caller, deadline, params, body }) {
        const b = body as WebhookBody;
        const w = await webhooks.updateWebhook(
          {
            organizationId: params.organizationId,
            webhookId: params.webhookId,
            url: b.url,
            events: b.events ?? [],
            setEvents: b.events !== undefined,
            active: b.active,
            description: b.description === undefined ? undefined : { value: b.description ?? undefined },
          },
          { caller, deadline },
        );
        return { body: webhookJson(w, urls) };
      },
    },
    {
      method: 'delete',
      path: '/v1/orgs/:organizationId/webhooks/:webhookId',
      operationId: 'deleteWebhook',
      summary: 'Delete a webhook; what it had still to send is skipped',
      description: ADMINS.trim(),
      tags: ['webhooks'],
      params: WEBHOOK_PARAMS,
      success: { status: 205, description: 'The webhook was deleted' },
      alternatives: [{ status: 204, description: 'There was no such webhook' }],
      async handler({ caller, deadline, params }) {
        const r = await webhooks.deleteWebhook({ organizationId: params.organizationId, webhookId: params.webhookId }, { caller, deadline });
        return r.deleted ? {} : { status: 204 };
      },
    },
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/webhooks/:webhookId/deliveries',
      operationId: 'listWebhookDeliveries',
      summary: "A webhook's deliveries, newest first, with every attempt",
      description: ADMINS.trim(),
      tags: ['webhooks'],
      params: WEBHOOK_PARAMS,
      query: LIST_QUERY,
      success: { status: 200, description: 'A page of deliveries', schema: DELIVERY_LIST },
      async handler({ caller, deadline, params, query }) {
        const r = await webhooks.listDeliveries({ organizationId: params.organizationId, webhookId: params.webhookId, page: pageOf(query) }, { caller, deadline });
        return { body: toList(r.items.map(deliveryJson), r.page) };
      },
    },
    {
      method: 'post',
      path: '/v1/orgs/:organizationId/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
      operationId: 'redeliverWebhookDelivery',
      summary: 'Send a delivery again (a new delivery of the same event, after what is still to send about its resource)',
      description: ADMINS.trim(),
      tags: ['webhooks'],
      params: DELIVERY_PARAMS,
      success: { status: 202, description: 'The new delivery, queued', schema: DELIVERY },
      async handler({ caller, deadline, params }) {
        const d = await webhooks.redeliver({ organizationId: params.organizationId, webhookId: params.webhookId, deliveryId: params.deliveryId }, { caller, deadline });
        return { status: 202, body: deliveryJson(d) };
      },
    },
  ];
}
