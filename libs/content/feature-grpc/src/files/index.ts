export * from './file-settings';
export * from './file-ingest';
export * from './files-deps';
export * from './downloads.service';
export { sniffContentType, imageDimensionsOf } from './content-type-sniffing';
