import { ClientSession, Db } from 'mongodb';
import type { EventEnvelope } from '@bindery/platform/events';
import { Repository } from '@bindery/platform/mongo';
import type { SyncRecord } from '@bindery/git-sync/domain';
import { COLLECTIONS } from './indexes';

/** The sync state of each space. */
export class SyncsRepository extends Repository<SyncRecord> {
  constructor(db: Db, eventsRecorded?: () => void) {
    super(db, COLLECTIONS.syncs, eventsRecorded);
  }

  get(spaceId: string) {
    return this.findOne({ _id: spaceId });
  }

  /** Records that the space's last import failed for good (a space never synced has no record to mark). */
  async markImportFailed(spaceId: string, reason: string) {
    await this.collection.updateOne({ _id: spaceId }, { $set: { lastImportFailure: { at: new Date().toISOString(), reason: reason.slice(0, 500) } } });
  }

  async clearImportFailure(spaceId: string) {
    await this.collection.updateOne({ _id: spaceId }, { $set: { lastImportFailure: null } });
  }

  /** Writes the state after a run, with its events. */
  save(record: SyncRecord, events: EventEnvelope[], session?: ClientSession) {
    const { _id, ...rest } = record;
    return this.updateRecord({ _id }, { $set: rest }, events, { session, upsert: true });
  }
}

interface CredentialRecord {
  _id: string;
  authorization: string;
  expireAt: Date;
}

/**
 * A run's credentials, apart from the run record (whose input is readable by whoever lists runs): written
 * with the enqueue, read by the worker, removed when the run ends; they expire after a day regardless.
 */
export class RunCredentialsRepository extends Repository<CredentialRecord> {
  constructor(db: Db) {
    super(db, COLLECTIONS.runCredentials);
  }

  async put(runId: string, authorization: string, session?: ClientSession) {
    await this.collection.updateOne({ _id: runId }, { $set: { authorization, expireAt: new Date(Date.now() + 86_400_000) } }, { upsert: true, session });
  }

  async get(runId: string): Promise<string | undefined> {
    return (await this.findOne({ _id: runId }))?.authorization;
  }

  async remove(runId: string) {
    await this.hardDelete({ _id: runId });
  }
}
