export * from './route-registry';
export * from './gateway-app';
export * from './authentication';
export * from './schemas';
export * from './gateway-module';
export * from './raw-routes';
export * from './idempotency-key';
export * from './events-admin-routes';
export { compileValidators, validateRequest } from './request-validation';
