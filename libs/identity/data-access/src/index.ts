export * from './indexes';
export * from './users.repository';
export * from './tokens.repository';
export * from './organizations.repository';
export * from './hostnames.repository';
export * from './members.repository';
export * from './invites.repository';
