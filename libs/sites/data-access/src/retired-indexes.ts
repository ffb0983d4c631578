import type { Db } from 'mongodb';
import { dropIndexesNamed } from '@bindery/platform/mongo';
import { RETIRED_INDEXES } from './indexes';

/** Drops the indexes of earlier versions (RETIRED_INDEXES) that are still there; run at start, after the current ones exist. */
export function dropRetiredIndexes(db: Db): Promise<string[]> {
  return dropIndexesNamed(db, RETIRED_INDEXES);
}
