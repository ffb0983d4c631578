export * from './mongo';
export * from './event-stores';
export * from './serialized-writes';
