export * from './indexes';
export * from './webhooks.repository';
export * from './deliveries.repository';
