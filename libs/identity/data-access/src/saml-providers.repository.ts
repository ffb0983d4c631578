import { Db } from 'mongodb';
import { EventEnvelope } from '@bindery/platform/events';
import { Repository } from '@bindery/platform/mongo';
import { SamlProviderRecord, TeamRecord } from '@bindery/identity/domain';
import { Cursor, MAX_LIMIT } from '@bindery/shared/pagination';
import { COLLECTIONS } from './indexes';

type SamlChanges = Partial<Pick<SamlProviderRecord, 'label' | 'entityID' | 'certificate' | 'ssoURL' | 'defaultTeam' | 'defaultRole' | 'updatedAt'>>;

/** What a provider shows of its default team (teams are their own family; this only reads them). */
export interface SamlTeamSummary {
  _id: string;
  title: string;
  createdAt: string;
}

/** The live teams of an organization, read only (teams.repository.ts owns them). */
class TeamSummaries extends Repository<TeamRecord> {
  constructor(db: Db) {
    super(db, COLLECTIONS.teams, undefined, { softDeleteField: 'deletedAt' });
  }
  byIds(organizationId: string, ids: string[]) {
    return this.findMany({ _id: { $in: ids }, organizationId }, { projection: { _id: 1, title: 1, createdAt: 1 } });
  }
}

/** SAML providers of organizations; deleted ones are soft-deleted (`deletedAt`) and left out of reads. */
export class SamlProvidersRepository extends Repository<SamlProviderRecord> {
  private readonly teamSummaries: TeamSummaries;

  constructor(db: Db, eventsRecorded?: () => void) {
    super(db, COLLECTIONS.samlProviders, eventsRecorded, { softDeleteField: 'deletedAt' });
    this.teamSummaries = new TeamSummaries(db);
  }

  insert(provider: SamlProviderRecord, events: EventEnvelope[]): Promise<SamlProviderRecord> {
    return this.insertRecord(provider, events);
  }

  find(organizationId: string, providerId: string) {
    return this.findOne({ _id: providerId, organizationId });
  }

  /** A live provider by its id alone (sign-in: the browser names only the provider). */
  findById(providerId: string) {
    return this.findOne({ _id: providerId });
  }

  /** The organization's providers in creation order, after `cursor`; `limit + 1` rows. */
  list(organizationId: string, cursor: Cursor | undefined, limit: number) {
    return this.keysetPage({ organizationId }, { key: 'createdAt', after: cursor, limit });
  }

  count(organizationId: string) {
    return this.countWhere({ organizationId });
  }

  /** Every provider of the organization (bounded like the longest page), for its sign-in choices. */
  all(organizationId: string) {
    return this.findMany({ organizationId }, { sort: { createdAt: 1, _id: 1 }, limit: MAX_LIMIT });
  }

  /** Applies the changes and records their events in the same write; null when gone. */
  update(organizationId: string, providerId: string, set: SamlChanges, events: EventEnvelope[]) {
    return this.updateRecord({ _id: providerId, organizationId }, { $set: set }, events);
  }

  /** Soft deletion with its event; the certificate goes at once (a deleted provider keeps no settings). False when gone. */
  softDelete(organizationId: string, providerId: string, at: string, events: EventEnvelope[]): Promise<boolean> {
    return this.softDeleteRecord({ _id: providerId, organizationId }, at, events, { $set: { updatedAt: at }, $unset: { certificate: '' } });
  }

  /** The live teams among `teamIds` that belong to the organization, by id. */
  async teams(organizationId: string, teamIds: string[]): Promise<Map<string, SamlTeamSummary>> {
    const ids = [...new Set(teamIds)];
    if (!ids.length) return new Map();
    const docs = await this.teamSummaries.byIds(organizationId, ids);
    return new Map(docs.map((d) => [d._id, { _id: d._id, title: d.title, createdAt: d.createdAt }]));
  }
}
