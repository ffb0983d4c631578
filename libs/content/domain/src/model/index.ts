export * from './content-hash';
export * from './hash-trie';
export * from './page-node';
export * from './slugs';
export * from './revision-draft';
export * from './change-input';
export * from './link-targets';
export * from './apply-changes';
