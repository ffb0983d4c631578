/** Sites' business rules: pure functions and types, no I/O. */
export * from './site-records';
export * from './site-policy';
export * from './site-paths';
export * from './site-settings';
export * from './site-urls';
export * from './adaptive-schema';
export * from './redirects';
export * from './git-redirects';
export * from './search-scope';
export * from './conditions';
export * from './site-structure';
export * from './structure-changes';
export * from './structure-problems';
export * from './published-urls';
export * from './visitor-tokens';
export * from './site-customization';
