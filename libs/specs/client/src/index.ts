export * from './specs-client';
export * from './specs-events';
export * from './specs-address';
