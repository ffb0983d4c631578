export * from './indexes';
export * from './notes.repository';
