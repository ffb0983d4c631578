export * from './file-settings';
export * from './file-ingest';
export * from './file-storage';
export * from './downloads.service';
export { sniffContentType, imageDimensionsOf } from './content-type-sniffing';
export * from './file-ports';
