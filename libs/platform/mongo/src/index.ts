export * from './mongo';
export * from './event-stores';
export * from './transactions';
export * from './versioned';
export * from './change-feed';
export * from './read-cache';
export * from './repository';
export * from './one-at-a-time';
