export * from './identity-deps';
export * from './users.service';
export * from './organizations.service';
export * from './invites.service';
export * from './grpc-handlers';
export * from './event-consumers';
export * from './identity-server';
