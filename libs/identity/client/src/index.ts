export * from './identity-client';
