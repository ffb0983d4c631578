export * from './service-runtime';
export * from './descriptor';
