export * from './indexes';
export * from './sites.repository';
export * from './share-links.repository';
export * from './site-dependents.repository';
export * from './structure.repositories';
