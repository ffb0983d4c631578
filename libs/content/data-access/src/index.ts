export * from './indexes';
export * from './content-items.repository';
export * from './spaces.repository';
export * from './collections.repository';
export * from './grants.repository';
export * from './revisions.repository';
export * from './tree-locks';
export * from './teams-directory';
