import { ClientSession, Db } from 'mongodb';
import { COLLECTIONS } from './indexes';

interface TeamDoc {
  _id: string;
  organizationId: string;
  deleted: boolean;
}

/** Answers which of the teams are live teams of the organization as identity has them now. */
export type ConfirmTeams = (organizationId: string, teamIds: string[]) => Promise<string[]>;

/**
 * Which teams exist in which organization, from identity's team events. A deletion is final, so the
 * order the events arrive in does not matter. The record may trail identity (a team created a
 * moment ago), so a "no" from it is confirmed with `confirm` (identity) before it is answered.
 */
export class TeamsDirectory {
  constructor(
    private readonly db: Db,
    private readonly confirm: ConfirmTeams,
  ) {}

  private get col() {
    return this.db.collection<TeamDoc>(COLLECTIONS.teams);
  }

  async created(organizationId: string, teamId: string, session?: ClientSession): Promise<void> {
    await this.col.updateOne({ _id: teamId }, { $setOnInsert: { organizationId, deleted: false } }, { upsert: true, session });
  }

  async deleted(organizationId: string, teamId: string, session?: ClientSession): Promise<void> {
    await this.col.updateOne({ _id: teamId }, { $set: { deleted: true }, $setOnInsert: { organizationId } }, { upsert: true, session });
  }

  /** The ids among `teamIds` that are live teams of the organization (those the record lacks confirmed at identity). */
  async existing(organizationId: string, teamIds: string[]): Promise<Set<string>> {
    const docs = await this.col.find({ _id: { $in: teamIds }, organizationId, deleted: false }).toArray();
    const known = new Set(docs.map((d) => d._id));
    const unknown = teamIds.filter((id) => !known.has(id));
    if (unknown.length) for (const id of await this.confirm(organizationId, unknown)) known.add(id);
    return known;
  }
}
