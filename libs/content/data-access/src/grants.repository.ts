import { ClientSession, Db, Filter } from 'mongodb';
import { EventEnvelope } from '@bindery/platform/events';
import { isDuplicateKey, Repository } from '@bindery/platform/mongo';
import { newId } from '@bindery/shared/ids';
import type { ContentKind, GrantRecord, PrincipalKind } from '@bindery/content/domain';
import type { Role } from '@bindery/shared/roles';
import { COLLECTIONS } from './indexes';

export interface GrantKey {
  targetKind: ContentKind;
  targetId: string;
  principalKind: PrincipalKind;
  principalId: string;
}

/** Direct grants; one per (target, principal) by a unique index, withdrawn by marking `removedAt`. */
export class GrantsRepository extends Repository<GrantRecord> {
  constructor(db: Db, eventsRecorded?: () => void) {
    super(db, COLLECTIONS.grants, eventsRecorded, { softDeleteField: 'removedAt' });
  }

  /** Gives `role` (replacing an earlier grant, withdrawn or not); answers the grant. */
  async set(organizationId: string, key: GrantKey, role: Role, at: string, events: EventEnvelope[], session?: ClientSession): Promise<GrantRecord> {
    const update = { $set: { role, organizationId, updatedAt: at }, $unset: { removedAt: '' }, $setOnInsert: { _id: newId(), createdAt: at } };
    for (let attempt = 0; ; attempt++) {
      try {
        return (await this.updateRecord({ ...key } as Filter<GrantRecord>, update as never, events, { upsert: true, includeDeleted: true, session }))!;
      } catch (err) {
        // Two first grants at once: the unique index kept one; the other now updates it.
        if (!isDuplicateKey(err) || attempt > 0) throw err;
      }
    }
  }

  find(key: GrantKey, session?: ClientSession) {
    return this.findOne({ ...key } as Filter<GrantRecord>, { session });
  }

  /** Withdraws a live grant with its event; false when there was none. */
  withdraw(key: GrantKey, at: string, events: EventEnvelope[], session?: ClientSession) {
    return this.updateMatched({ ...key } as Filter<GrantRecord>, { $set: { removedAt: at, updatedAt: at } } as never, events, { session });
  }

  /** The live grants of a user and of their teams in an organization. */
  ofPrincipal(organizationId: string, userId: string, teams: readonly string[], session?: ClientSession) {
    return this.findMany(
      {
        organizationId,
        $or: [
          { principalKind: 'user', principalId: userId },
          { principalKind: 'team', principalId: { $in: [...teams] } },
        ],
      } as Filter<GrantRecord>,
      {
        session,
      },
    );
  }

  /** Every live grant in an organization of a principal (for cleanup when it leaves). */
  allOfPrincipal(organizationId: string, principalKind: PrincipalKind, principalId: string, session?: ClientSession) {
    return this.findMany({ organizationId, principalKind, principalId } as Filter<GrantRecord>, { session });
  }

  /** The live grants on any of `targets`. */
  onTargets(targets: ReadonlyArray<{ kind: ContentKind; id: string }>, session?: ClientSession) {
    if (!targets.length) return Promise.resolve([]);
    return this.findMany({ $or: targets.map((t) => ({ targetKind: t.kind, targetId: t.id })) } as Filter<GrantRecord>, { session });
  }

  /** A page of one target's grants to one kind of principal, by principal id. */
  page(targetKind: ContentKind, targetId: string, principalKind: PrincipalKind, after: { k?: string | number; id: string } | undefined, limit: number) {
    return this.keysetPage({ targetKind, targetId, principalKind } as Filter<GrantRecord>, { key: 'principalId', after, limit });
  }

  countOf(targetKind: ContentKind, targetId: string, principalKind: PrincipalKind) {
    return this.countWhere({ targetKind, targetId, principalKind } as Filter<GrantRecord>);
  }

  /** Moves live grants to another organization (transfer). */
  async moveTo(ids: string[], organizationId: string, at: string, session: ClientSession) {
    for (const id of ids) await this.updateMatched({ _id: id } as Filter<GrantRecord>, { $set: { organizationId, updatedAt: at } } as never, [], { session });
  }

  /** Removes withdrawn grants (events relayed) and every grant on the given purged targets. */
  async removeFor(targetKind: ContentKind, targetIds: string[]) {
    if (targetIds.length) await this.hardDelete({ targetKind, targetId: { $in: targetIds } } as Filter<GrantRecord>);
  }

  removeWithdrawn() {
    return this.hardDelete({ removedAt: { $exists: true } } as Filter<GrantRecord>);
  }
}
