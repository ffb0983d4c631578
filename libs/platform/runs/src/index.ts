export * from './run-model';
export * from './timings';
export * from './run-handlers';
export * from './run-store';
export * from './run-worker';
export * from './run-message';
