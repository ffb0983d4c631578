export * from './indexes';
export * from './syncs.repository';
