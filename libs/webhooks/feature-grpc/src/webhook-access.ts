import { forbidden, notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { canManageWebhooks } from '@bindery/webhooks/domain';
import type { WebhooksDeps } from './webhooks-deps';

/**
 * Only organization administrators manage webhooks (as SAML providers): outside the organization its
 * webhooks do not exist (404, like one that does not); any other member, guests included, is refused (403).
 */
export async function assertWebhookAdmin(deps: Pick<WebhooksDeps, 'access'>, caller: Caller, organizationId: string): Promise<void> {
  if (caller.isInstanceAdmin) return;
  const access = await deps.access.accessOf(organizationId, caller.userId);
  if (!access) throw notFound('Webhook');
  if (!canManageWebhooks(access.role, false)) throw forbidden('Only the organization’s administrators manage its webhooks.');
}
