import { ClientSession, Db } from 'mongodb';
import { COLLECTIONS } from './indexes';

interface TeamDoc {
  _id: string;
  organizationId: string;
  deleted: boolean;
}

/**
 * Which teams exist in which organization, from identity's team events. A deletion is final, so the
 * order the events arrive in does not matter.
 */
export class TeamsDirectory {
  constructor(private readonly db: Db) {}

  private get col() {
    return this.db.collection<TeamDoc>(COLLECTIONS.teams);
  }

  async created(organizationId: string, teamId: string, session?: ClientSession): Promise<void> {
    await this.col.updateOne({ _id: teamId }, { $setOnInsert: { organizationId, deleted: false } }, { upsert: true, session });
  }

  async deleted(organizationId: string, teamId: string, session?: ClientSession): Promise<void> {
    await this.col.updateOne({ _id: teamId }, { $set: { deleted: true }, $setOnInsert: { organizationId } }, { upsert: true, session });
  }

  /** The ids among `teamIds` that are live teams of the organization. */
  async existing(organizationId: string, teamIds: string[]): Promise<Set<string>> {
    const docs = await this.col.find({ _id: { $in: teamIds }, organizationId, deleted: false }).toArray();
    return new Set(docs.map((d) => d._id));
  }
}
