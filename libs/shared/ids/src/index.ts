export * from './ids';
export * from './time';
