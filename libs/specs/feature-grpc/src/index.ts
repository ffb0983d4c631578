export * from './specs-server';
export * from './specs-runs';
