/** Content's business rules: pure functions and types, no I/O. */
export * from './records';
export * from './text-fields';
export * from './access-policy';
export * from './tree';
export * from './lifecycle';
export * from './model';
export * from './download-token';
export * from './merge';
export * from './space-selection';
