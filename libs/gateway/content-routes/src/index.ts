export * from './content-routes';
export { collectionJson, spaceJson } from './representations';
export { revisionReadBuilders, PATH_PARAM } from './content-read-routes';
export type { RevisionOf } from './content-read-routes';
export { semanticChangeJson, withDownloadUrl } from './content-representations';
export { IMPORT_CONTENT, websiteUrlOf } from './import-routes';
