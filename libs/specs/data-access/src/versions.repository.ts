import { ClientSession, Db } from 'mongodb';
import type { VersionContentRecord, VersionRecord } from '@bindery/specs/domain';

type VersionRawRecord = Pick<VersionContentRecord, '_id' | 'organizationId' | 'specId' | 'raw' | 'format'>;
import { COLLECTIONS } from './indexes';

/**
 * A spec's versions and their contents. Versions are written once, inside the transaction that moves
 * the spec's latest pointer (SpecsRepository.advanceLatest); a version's number is unique per spec.
 */
export class VersionsRepository {
  constructor(private readonly db: Db) {}

  private get versions() {
    return this.db.collection<VersionRecord>(COLLECTIONS.versions);
  }

  private get contents() {
    return this.db.collection<Omit<VersionContentRecord, 'raw'>>(COLLECTIONS.contents);
  }

  private get raws() {
    return this.db.collection<VersionRawRecord>(COLLECTIONS.raws);
  }

  /**
   * Stores a version's files and its entry as received (megabytes each), in parallel and outside any
   * transaction: a version is there only once `insert` names them, so contents no version names are
   * leftovers (`discardContent`), never half a version.
   */
  async storeContent(content: VersionContentRecord): Promise<void> {
    const { raw, ...files } = content;
    await Promise.all([
      this.contents.insertOne(files),
      this.raws.insertOne({ _id: content._id, organizationId: content.organizationId, specId: content.specId, raw, format: content.format }),
    ]);
  }

  async discardContent(specId: string, versionId: string): Promise<void> {
    await Promise.all([this.contents.deleteOne({ _id: versionId, specId }), this.raws.deleteOne({ _id: versionId, specId })]);
  }

  /** The version itself (its content stored before), in the transaction that moves the spec's latest pointer. */
  async insert(version: VersionRecord, session: ClientSession): Promise<void> {
    await this.versions.insertOne(version, { session });
  }

  get(specId: string, versionId: string, session?: ClientSession) {
    return this.versions.findOne({ _id: versionId, specId }, { session });
  }

  content(specId: string, versionId: string) {
    return this.contents.findOne({ _id: versionId, specId });
  }

  /** The entry file as received. */
  raw(specId: string, versionId: string) {
    return this.raws.findOne({ _id: versionId, specId });
  }

  /** A page of the spec's versions, newest first, after the cursor (its number). */
  page(specId: string, limit: number, afterNumber?: number) {
    return this.versions
      .find({ specId, ...(afterNumber !== undefined ? { number: { $lt: afterNumber } } : {}) })
      .sort({ number: -1 })
      .limit(limit + 1)
      .toArray();
  }

  count(specId: string) {
    return this.versions.countDocuments({ specId });
  }

  /** Removes every version of a spec and its contents (the spec is being deleted, in the same transaction). */
  async removeAll(specId: string, session: ClientSession): Promise<number> {
    await this.contents.deleteMany({ specId }, { session });
    await this.raws.deleteMany({ specId }, { session });
    return (await this.versions.deleteMany({ specId }, { session })).deletedCount;
  }
}
