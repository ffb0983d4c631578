/** Change requests' rules: records, who may do what, lifecycle, reactions, comment bodies. Pure. */
export * from './records';
export * from './change-request-policy';
export * from './lifecycle';
export * from './reactions';
export * from './comment-body';
