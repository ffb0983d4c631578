export * from './indexes';
export * from './sites.repository';
export * from './structure.repositories';
export * from './share-link-keys';
