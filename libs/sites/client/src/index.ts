export * from './sites-address';
export * from './sites-client';
export * from './sites-events';
