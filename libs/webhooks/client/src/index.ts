export * from './webhooks-client';
export * from './webhooks-events';
// The public contract of a delivery (its event types, payload, signature and URL rules): what the
// gateway declares, the service sends and a receiver checks.
export * from './event-types';
export * from './signature';
export * from './target-url';
