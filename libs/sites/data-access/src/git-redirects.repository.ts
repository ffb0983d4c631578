import { ClientSession, Db } from 'mongodb';
import type { GitRedirectsRecord } from '@bindery/sites/domain';
import { COLLECTIONS } from './indexes';

/**
 * The Git redirects of each space (one document per space, `_id` the space id), replaced as a whole
 * by each Git import that carries them (git-sync-events.ts). Kept apart from the sites' own
 * redirects: no site owns them, every site showing the space reads them. No events of their own:
 * the consumer records `sites.site.updated` ("redirects") on each site showing the space.
 */
export class GitRedirectsRepository {
  constructor(private readonly db: Db) {}

  private get records() {
    return this.db.collection<GitRedirectsRecord>(COLLECTIONS.gitRedirects);
  }

  get(spaceId: string, session?: ClientSession) {
    return this.records.findOne({ _id: spaceId }, { session });
  }

  /** Replaces the space's Git redirects (inserting the record when it has none). */
  async replace(record: GitRedirectsRecord, session?: ClientSession): Promise<void> {
    await this.records.replaceOne({ _id: record._id }, record, { upsert: true, session });
  }

  /** The records of these spaces of the organization holding a redirect from one of `sources` (a lookup's candidates). */
  withSources(organizationId: string, spaceIds: string[], sources: string[]) {
    return this.records.find({ _id: { $in: spaceIds }, organizationId, 'redirects.source': { $in: sources } }).toArray();
  }

  /** The space went to another organization: its Git redirects go with it. */
  async moveTo(spaceId: string, organizationId: string, session?: ClientSession): Promise<void> {
    await this.records.updateOne({ _id: spaceId }, { $set: { organizationId } }, { session });
  }

  /** The space was purged: its Git redirects go. */
  async remove(spaceId: string, session?: ClientSession): Promise<void> {
    await this.records.deleteOne({ _id: spaceId }, { session });
  }
}
