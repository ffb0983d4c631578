// bindery/content/v1/revisions.proto with its parts, as one module (see tools/proto/generate.js); never edited by hand.
export * from './revisions';
export * from './revisions.changes';
export * from './revisions.files';
export * from './revisions.imports';
export * from './revisions.pages';
export * from './revisions.reads';
