export * from './sites-server';
export * from './sites-runs';
