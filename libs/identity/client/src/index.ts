export * from './identity-client';
export * from './identity-address';
export * from './identity-events';
