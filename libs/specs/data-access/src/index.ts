export * from './indexes';
export * from './specs.repository';
export * from './versions.repository';
export * from './translation-settings.repository';
