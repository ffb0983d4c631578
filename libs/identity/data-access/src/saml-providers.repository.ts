import { Db } from 'mongodb';
import { EventEnvelope, outboxOnInsert, withOutbox, withoutOutbox } from '@bindery/platform/events';
import { SamlProviderRecord, TeamRecord } from '@bindery/identity/domain';
import { Cursor, keysetFilter, MAX_LIMIT } from '@bindery/shared/pagination';
import { COLLECTIONS } from './indexes';

type SamlChanges = Partial<Pick<SamlProviderRecord, 'label' | 'entityID' | 'certificate' | 'ssoURL' | 'defaultTeam' | 'defaultRole' | 'updatedAt'>>;

/** What a provider shows of its default team (teams are their own family; this only reads them). */
export interface SamlTeamSummary {
  _id: string;
  title: string;
  createdAt: string;
}

const LIVE = { deletedAt: { $exists: false } };

export class SamlProvidersRepository {
  constructor(private readonly db: Db) {}

  private get col() {
    return this.db.collection<SamlProviderRecord>(COLLECTIONS.samlProviders);
  }

  async insert(provider: Omit<SamlProviderRecord, 'outbox' | 'outboxCount'>, events: EventEnvelope[]): Promise<SamlProviderRecord> {
    const doc: SamlProviderRecord = { ...provider, ...outboxOnInsert(events) };
    await this.col.insertOne(doc);
    return withoutOutbox(doc) as SamlProviderRecord;
  }

  find(organizationId: string, providerId: string) {
    return this.col.findOne({ _id: providerId, organizationId, ...LIVE }, { projection: { outbox: 0 } });
  }

  /** The organization's providers in creation order, after `cursor`; `limit + 1` rows. */
  list(organizationId: string, cursor: Cursor | undefined, limit: number) {
    return this.col
      .find({ organizationId, ...LIVE, ...keysetFilter(cursor, 'createdAt') }, { projection: { outbox: 0 } })
      .sort({ createdAt: 1, _id: 1 })
      .limit(limit + 1)
      .toArray();
  }

  count(organizationId: string) {
    return this.col.countDocuments({ organizationId, ...LIVE });
  }

  /** Every provider of the organization (bounded like the longest page), for its sign-in choices. */
  all(organizationId: string) {
    return this.col.find({ organizationId, ...LIVE }, { projection: { outbox: 0 } }).sort({ createdAt: 1, _id: 1 }).limit(MAX_LIMIT).toArray();
  }

  /** Applies the changes and records their events in the same write; null when gone. */
  async update(organizationId: string, providerId: string, set: SamlChanges, events: EventEnvelope[]) {
    return this.col.findOneAndUpdate({ _id: providerId, organizationId, ...LIVE }, withOutbox({ $set: set }, events), { returnDocument: 'after', projection: { outbox: 0 } });
  }

  /**
   * Soft deletion with its event in the same write (the document may hold events the relay has not
   * sent). The certificate goes at once: a deleted provider keeps no settings. False when gone.
   */
  async softDelete(organizationId: string, providerId: string, at: string, events: EventEnvelope[]): Promise<boolean> {
    const r = await this.col.updateOne(
      { _id: providerId, organizationId, ...LIVE },
      withOutbox({ $set: { deletedAt: at, updatedAt: at }, $unset: { certificate: '' } }, events),
    );
    return r.matchedCount === 1;
  }

  /** The live teams among `teamIds` that belong to the organization, by id (teams are only read here). */
  async teams(organizationId: string, teamIds: string[]): Promise<Map<string, SamlTeamSummary>> {
    const ids = [...new Set(teamIds)];
    if (!ids.length) return new Map();
    const docs = await this.db
      .collection<TeamRecord>(COLLECTIONS.teams)
      .find({ _id: { $in: ids }, organizationId, ...LIVE }, { projection: { _id: 1, title: 1, createdAt: 1 } })
      .toArray();
    return new Map(docs.map((d) => [d._id, { _id: d._id, title: d.title, createdAt: d.createdAt }]));
  }
}
