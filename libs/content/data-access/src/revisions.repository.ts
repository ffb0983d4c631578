import { ClientSession, Db } from 'mongodb';
import type { ReusableContentNode } from '@bindery/content/domain';
import { EventEnvelope } from '@bindery/platform/events';
import { Repository } from '@bindery/platform/mongo';
import { COLLECTIONS } from './indexes';
import { Lru } from './lru';

/**
 * An immutable revision of a space's content: the roots of its page and file maps (content-addressed
 * tries, see libs/content/domain/src/model/hash-trie.ts) and its place in the history. Revisions
 * created before the content model existed have no roots: they are empty.
 */
export interface RevisionRecord {
  _id: string;
  spaceId: string;
  parents: string[];
  /** edits | merge | rollback | update | computed */
  type: string;
  createdAt: string;
  pages?: string;
  files?: string;
  /** the revision's reusable contents, in order (their documents are content-addressed records) */
  reusableContents?: ReusableContentNode[];
  variables?: Record<string, string>;
  git?: { oid: string; message: string; createdByService: boolean; url?: string; ref?: string };
  mergedFrom?: string;
  /** the idempotency key of the merge that wrote this revision (unique per space) */
  mergeKey?: string;
  /** the pages this revision changed or removed relative to its first parent */
  changedPages?: string[];
  deletedPages?: string[];
}

export class RevisionsRepository extends Repository<RevisionRecord> {
  private readonly known = new Lru<RevisionRecord>(5_000);

  constructor(db: Db, eventsRecorded?: () => void) {
    super(db, COLLECTIONS.revisions, eventsRecorded);
  }

  insert(revision: RevisionRecord, session?: ClientSession, events: readonly EventEnvelope[] = []) {
    return this.insertRecord(revision, events, session);
  }

  /** A revision of the space (revisions are never changed once written, so one read is remembered). */
  async get(spaceId: string, revisionId: string): Promise<RevisionRecord | null> {
    const key = `${spaceId}:${revisionId}`;
    const hit = this.known.get(key);
    if (hit) return hit;
    const record = await this.findOne({ _id: revisionId, spaceId });
    if (record) this.known.set(key, record);
    return record;
  }

  /** The revision a merge with this idempotency key wrote, if any. */
  findByMergeKey(spaceId: string, mergeKey: string): Promise<RevisionRecord | null> {
    return this.findOne({ spaceId, mergeKey });
  }

  removeOfSpace(spaceId: string) {
    return this.hardDelete({ spaceId });
  }
}
