export * from './search-server';
