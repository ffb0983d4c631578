/** Sites' business rules: pure functions and types, no I/O. */
export * from './site-records';
export * from './site-policy';
export * from './redirects';
export * from './search-scope';
