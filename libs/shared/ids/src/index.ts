export * from './ids';
export * from './time';
export * from './idempotency';
