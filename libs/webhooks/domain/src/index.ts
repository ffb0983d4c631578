export * from './records';
export * from './retry-policy';
export * from './permissions';
