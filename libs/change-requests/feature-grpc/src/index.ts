export * from './change-requests-server';
