import { defineGatewayModule, RouteSpec, servicePingRoute } from '@bindery/gateway/http';
import { connectWebhooks, WebhooksClients } from '@bindery/webhooks/client';
import { webhookRoutes } from './webhook-routes';

/** Webhooks's routes: the webhooks of an organization, and the service's ping under /admin. */
export function webhooksRoutes(clients: WebhooksClients, context: { publicUrl: string }): RouteSpec[] {
  return [...webhookRoutes(clients, { publicUrl: context.publicUrl }), servicePingRoute('webhooks', (req, call) => clients.webhooks.ping(req, call))];
}

export const webhooksGateway = defineGatewayModule({ service: 'webhooks', connect: connectWebhooks, routes: webhooksRoutes });
