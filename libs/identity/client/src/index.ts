export * from './identity-client';
export * from './identity-events';
