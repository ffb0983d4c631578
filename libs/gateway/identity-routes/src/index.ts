export * from './identity-routes';
