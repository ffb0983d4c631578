export * from './call-context';
export * from './server';
export * from './client';
export * from './health';
export * from './typed-service';
export * from './streaming';
export * from './events-admin-client';
