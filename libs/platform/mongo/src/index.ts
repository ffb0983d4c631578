export * from './mongo';
export * from './event-stores';
export * from './transactions';
export * from './versioned';
