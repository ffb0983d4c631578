import { Db } from 'mongodb';
import { isDuplicateKey, Repository } from '@bindery/platform/mongo';
import { COLLECTIONS } from './indexes';

/**
 * A browser session: only the SHA-256 of its secret is kept. `expiresAt` is a Date so that the TTL
 * index removes the document once it is over; a revoked session stays until then, marked.
 */
export interface SessionRecord {
  _id: string;
  hash: string;
  userId: string;
  organizationId: string;
  /** how it started: the SAML provider the user signed in with */
  samlProviderId: string;
  createdAt: string;
  expiresAt: Date;
  revokedAt?: string;
}

/** A sign-in this instance started (SP-initiated): the AuthnRequest's id, until answered or expired. */
export interface PendingSamlRequestRecord {
  _id: string;
  samlProviderId: string;
  returnTo: string;
  expiresAt: Date;
}

/** An assertion already used, kept until its NotOnOrAfter (plus the allowed skew) so it cannot be used again. */
export interface UsedAssertionRecord {
  _id: string;
  samlProviderId: string;
  expiresAt: Date;
}

export class SessionsRepository extends Repository<SessionRecord> {
  constructor(db: Db) {
    super(db, COLLECTIONS.sessions);
  }

  async insert(session: SessionRecord): Promise<void> {
    await this.insertRecord(session);
  }

  /** The session with this secret's hash, if it is neither revoked nor over at `now`. */
  findLive(hash: string, now: Date) {
    return this.findOne({ hash, revokedAt: { $exists: false }, expiresAt: { $gt: now } });
  }

  /** Marks the live session with this hash revoked; false when there was none. */
  revoke(hash: string, at: string): Promise<boolean> {
    return this.updateMatched({ hash, revokedAt: { $exists: false } }, { $set: { revokedAt: at } });
  }
}

export class PendingSamlRequestsRepository extends Repository<PendingSamlRequestRecord> {
  constructor(db: Db) {
    super(db, COLLECTIONS.samlRequests);
  }

  async insert(request: PendingSamlRequestRecord): Promise<void> {
    await this.insertRecord(request);
  }

  /** Takes the request away (each is answered once); null when unknown, of another provider, or expired at `now`. */
  async take(requestId: string, samlProviderId: string, now: Date): Promise<PendingSamlRequestRecord | null> {
    const doc = await this.collection.findOneAndDelete({ _id: requestId, samlProviderId });
    return doc && doc.expiresAt > now ? (doc as PendingSamlRequestRecord) : null;
  }
}

export class UsedAssertionsRepository extends Repository<UsedAssertionRecord> {
  constructor(db: Db) {
    super(db, COLLECTIONS.samlAssertions);
  }

  /** Records an assertion's first use; false when it was used before (a replay). */
  async firstUse(record: UsedAssertionRecord): Promise<boolean> {
    try {
      await this.insertRecord(record);
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }
}
