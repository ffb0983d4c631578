export * from './sites-server';
export * from './sites-deps';
export * from './site-access';
