/** Search's rules: text folding and stemming, sections of a page, query parsing, ranking, excerpts. No I/O. */
export * from './text';
export * from './sections';
export * from './query';
export * from './ranking';
export * from './excerpt';
export * from './postings';
export * from './min-heap';
