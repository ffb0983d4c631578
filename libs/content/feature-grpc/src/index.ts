export * from './content-server';
