import { ClientSession, Db } from 'mongodb';
import type { VersionContentRecord, VersionRecord } from '@bindery/specs/domain';
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
    return this.db.collection<VersionContentRecord>(COLLECTIONS.contents);
  }

  async insert(version: VersionRecord, content: VersionContentRecord, session: ClientSession): Promise<void> {
    await this.versions.insertOne(version, { session });
    await this.contents.insertOne(content, { session });
  }

  get(specId: string, versionId: string, session?: ClientSession) {
    return this.versions.findOne({ _id: versionId, specId }, { session });
  }

  content(specId: string, versionId: string) {
    return this.contents.findOne({ _id: versionId, specId });
  }

  /** The entry file as received, without the normalised files. */
  raw(specId: string, versionId: string) {
    return this.contents.findOne({ _id: versionId, specId }, { projection: { filesystemJson: 0 } });
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
    return (await this.versions.deleteMany({ specId }, { session })).deletedCount;
  }
}
