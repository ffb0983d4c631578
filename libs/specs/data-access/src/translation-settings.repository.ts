import { ClientSession, Db } from 'mongodb';
import type { EventEnvelope } from '@bindery/platform/events';
import { Repository } from '@bindery/platform/mongo';
import type { TranslationSettingsRecord } from '@bindery/specs/domain';
import { COLLECTIONS } from './indexes';

/** An organization's translation settings; a deleted one is left out of every read. */
export class TranslationSettingsRepository extends Repository<TranslationSettingsRecord> {
  constructor(db: Db, eventsRecorded?: () => void) {
    super(db, COLLECTIONS.translationSettings, eventsRecorded, { softDeleteField: 'deletedAt' });
  }

  insert(record: TranslationSettingsRecord, events: EventEnvelope[], session?: ClientSession) {
    return this.insertRecord(record, events, session);
  }

  get(organizationId: string, id: string) {
    return this.findOne({ _id: id, organizationId });
  }

  /** A page of the organization's settings, oldest first, after the cursor (createdAt, id). */
  page(organizationId: string, limit: number, after?: { k?: string | number; id: string }) {
    return this.keysetPage({ organizationId }, { key: 'createdAt', after, limit });
  }

  count(organizationId: string) {
    return this.countWhere({ organizationId });
  }

  /** Renames them and sets their languages at `updatedAt`; null when they are gone. */
  rename(organizationId: string, id: string, fields: Pick<TranslationSettingsRecord, 'title' | 'languages' | 'updatedAt'>, events: EventEnvelope[]) {
    return this.updateRecord({ _id: id, organizationId }, { $set: fields }, events);
  }

  remove(organizationId: string, id: string, at: string, events: EventEnvelope[]) {
    return this.softDeleteRecord({ _id: id, organizationId }, at, events, { $set: { updatedAt: at } });
  }
}
