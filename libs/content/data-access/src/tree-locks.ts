import { ClientSession, Db } from 'mongodb';
import { COLLECTIONS } from './indexes';

/**
 * One small document per organization that every change to its tree (create under a parent, move,
 * delete, restore, transfer) writes first inside its transaction. Two such transactions of one
 * organization therefore conflict and run one after the other: a check made on the tree (no cycle,
 * the parent exists, the neighbours are where they were) still holds when the change commits.
 */
export class TreeLocks {
  constructor(private readonly db: Db) {}

  async take(organizationId: string, session: ClientSession): Promise<void> {
    await this.db.collection<{ _id: string; version: number }>(COLLECTIONS.treeLocks).updateOne({ _id: organizationId }, { $inc: { version: 1 } }, { upsert: true, session });
  }
}
