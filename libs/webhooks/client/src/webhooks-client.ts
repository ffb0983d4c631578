import { ClientsOf, clientSet } from '@bindery/platform/grpc';
import { webhooksV1 } from '@bindery/shared/contracts';

const SERVICES = { webhooks: webhooksV1.WebhooksServiceService };

/** Typed clients of webhooks's gRPC services (deadline and signed caller on each call). */
export const connectWebhooks = clientSet(SERVICES);
export type WebhooksClients = ClientsOf<typeof SERVICES>;
