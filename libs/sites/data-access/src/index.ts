export * from './indexes';
export * from './sites.repository';
export * from './site-token-store';
export * from './redirects.repository';
export * from './published-structure-reads';
