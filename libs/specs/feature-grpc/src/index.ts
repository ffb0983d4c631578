export * from './specs-server';
export * from './specs-deps';
export * from './spec-access';
export * from './process-spec.run';
export * from './processing';
