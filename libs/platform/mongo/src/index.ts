export * from './mongo';
export * from './event-stores';
