import { defineGatewayModule, RouteSpec } from '@bindery/gateway/http';
import { connectWebhooks, WebhooksClients } from '@bindery/webhooks/client';
import { webhookRoutes } from './webhook-routes';

/** Webhooks's routes: the webhooks of an organization, and the service's ping under /admin. */
export function webhooksRoutes(clients: WebhooksClients, context: { publicUrl: string }): RouteSpec[] {
  return [
    ...webhookRoutes(clients, { publicUrl: context.publicUrl }),
    {
      method: 'get',
      path: '/admin/services/webhooks',
      operationId: 'pingWebhooks',
      summary: 'Whether webhooks answers, and who is calling',
      tags: ['admin'],
      success: {
        status: 200,
        description: 'The service and the caller it saw',
        schema: {
          type: 'object',
          required: ['service', 'callerUserId'],
          additionalProperties: false,
          properties: { service: { type: 'string' }, callerUserId: { type: 'string' } },
        },
      },
      async handler({ caller, deadline }) {
        return { body: await clients.webhooks.ping({}, { caller, deadline }) };
      },
    },
  ];
}

export const webhooksGateway = defineGatewayModule({ service: 'webhooks', connect: connectWebhooks, routes: webhooksRoutes });
