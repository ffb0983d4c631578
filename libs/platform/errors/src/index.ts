export * from './domain-error';
export * from './status-mapping';
