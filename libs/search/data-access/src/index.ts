export { COLLECTIONS as SEARCH_COLLECTIONS, SEARCH_INDEXES, sectionRecords } from './records';
export type { IndexedPage, SectionRecord, SpaceRecord } from './records';
export { IndexStore } from './index-store';
export { IndexFormatStore } from './index-format-store';
export { searchStores } from './search-stores';
export type { SearchStores } from './search-stores';
