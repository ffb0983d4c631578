export * from './service-runtime';
export * from './descriptor';
export * from './run-settings';
