import type { Db } from '@bindery/platform/mongo';
import { COLLECTIONS } from './records';

const META = 'meta';
const FORMAT_ID = 'format';
/** The first format's multikey index on `sections` (its postings were `sections.terms`). */
const LEGACY_INDEX = 'postings';

interface FormatRecord {
  _id: string;
  version?: number;
}

/** Which format the index's storage is in: the version marked, and the first format's leftover index. */
export class IndexFormatStore {
  constructor(private readonly db: Db) {}

  private get meta() {
    return this.db.collection<FormatRecord>(META);
  }

  async isMarked(version: number): Promise<boolean> {
    return !!(await this.meta.findOne({ _id: FORMAT_ID, version }));
  }

  async mark(version: number): Promise<void> {
    await this.meta.updateOne({ _id: FORMAT_ID }, { $set: { version } }, { upsert: true });
  }

  /** Whether `sections` still has the first format's index. */
  async hasLegacyIndex(): Promise<boolean> {
    return (await this.db.collection(COLLECTIONS.sections).indexes()).some((i) => i.name === LEGACY_INDEX);
  }

  async dropLegacyIndex(): Promise<void> {
    await this.db.collection(COLLECTIONS.sections).dropIndex(LEGACY_INDEX);
  }
}
