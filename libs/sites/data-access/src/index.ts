export * from './indexes';
export * from './sites.repository';
export * from './site-token-store';
