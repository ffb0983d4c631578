export * from './ports';
export * from './processes';
export * from './system-under-test';
export * from './official-spec';
export * from './eventually';
export * from './event-reader';
export * from './otlp-receiver';
export * from './manifests';
