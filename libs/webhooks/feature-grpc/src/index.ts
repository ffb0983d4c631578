export * from './webhooks-server';
export * from './webhooks-deps';
export { webhookSourceHandlers, WEBHOOK_SOURCES } from './event-sources';
export { recordDeliveries } from './dispatch';
