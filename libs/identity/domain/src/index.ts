export * from './roles';
export * from './records';
export * from './organization-policy';
export * from './organization-rules';
export * from './emails';
