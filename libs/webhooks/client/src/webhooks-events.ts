import { defineEvent } from '@bindery/platform/events';
import { webhooksEventsV1 as ev } from '@bindery/shared/contracts';

/**
 * Every event webhooks publishes (topic bindery.webhooks.v1), each type paired with its payload message
 * from proto/bindery/events/webhooks/v1 once: producers create and consumers decode through these definitions.
 */
export const WebhooksEvents = {
  webhookCreated: defineEvent('webhooks.webhook.created', ev.WebhookChanged),
  webhookUpdated: defineEvent('webhooks.webhook.updated', ev.WebhookChanged),
  webhookDeleted: defineEvent('webhooks.webhook.deleted', ev.WebhookChanged),
  webhookDisabled: defineEvent('webhooks.webhook.disabled', ev.WebhookChanged),
};
