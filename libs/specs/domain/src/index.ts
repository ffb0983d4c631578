/** Specs' business rules: pure functions and types, no I/O. */
export * from './spec-records';
export * from './spec-policy';
export * from './spec-rules';
export * from './languages';
