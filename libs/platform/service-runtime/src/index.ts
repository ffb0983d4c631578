export * from './service-runtime';
export * from './descriptor';
export * from './consumers';
export * from './run-settings';
export * from './http-app';
export * from './hosted';
export * from './stop-on-signals';
