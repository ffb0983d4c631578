export * from './sites-server';
export * from './sites-deps';
export * from './site-access';
export * from './site-tokens';
