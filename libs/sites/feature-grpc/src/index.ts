export * from './sites-server';
export * from './sites-deps';
export * from './site-access';
export * from './site-tokens';
export * from './content-events';
export * from './structure-change';
