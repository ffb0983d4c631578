import type { Db } from '@bindery/platform/mongo';
import { IndexFormatStore } from './index-format-store';
import { IndexStore } from './index-store';

/** Everything search keeps in its database. */
export interface SearchStores {
  index: IndexStore;
  format: IndexFormatStore;
}

export function searchStores(db: Db): SearchStores {
  return { index: new IndexStore(db), format: new IndexFormatStore(db) };
}
