export * from './logger';
export * from './trace-context';
export * from './redact-url';
export * from './rpc-spans';
