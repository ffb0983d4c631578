export * from './specs-client';
export * from './specs-events';
