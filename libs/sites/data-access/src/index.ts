export * from './indexes';
export * from './sites.repository';
export * from './site-token-store';
export * from './share-links.repository';
export * from './site-dependents.repository';
export * from './redirects.repository';
export * from './structure.repositories';
export * from './visitor-keys.repository';
