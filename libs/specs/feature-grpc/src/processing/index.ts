export * from './document-problem';
export * from './document-text';
export * from './fetch-file';
export * from './json-paths';
export * from './load-files';
export * from './process-document';
export * from './validate-files';
