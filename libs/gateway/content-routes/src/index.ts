export * from './content-routes';
export { collectionJson, spaceJson } from './representations';
