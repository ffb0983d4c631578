export * from './search-server';
export { IndexStore, sectionRecords, COLLECTIONS as SEARCH_COLLECTIONS } from './index-store';
export type { IndexedPage, SectionRecord } from './index-store';
