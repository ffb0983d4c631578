export * from './indexes';
export * from './sites.repository';
