export * from './text-length';
export * from './text-limits';
export * from './emoji';
