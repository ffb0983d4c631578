import { Db, MongoBulkWriteError } from 'mongodb';
import { COLLECTIONS } from './indexes';
import { Lru } from './lru';

/** The kinds of immutable record a revision is made of. */
export type ContentObjectKind = 'trie' | 'page' | 'root' | 'doc' | 'file';

interface ContentObject {
  _id: string;
  spaceId: string;
  kind: ContentObjectKind;
  body: unknown;
}

const DUPLICATE_KEY = 11000;

/**
 * Content-addressed records (trie nodes, page versions, documents, files) of a space. A record's id is
 * its space and its content hash, so writing one that exists is a no-op and revisions share records.
 * Records are never updated; they go with the space when it is purged.
 */
export class ContentObjectsRepository {
  private readonly cache = new Lru<unknown>(20_000);

  constructor(private readonly db: Db) {}

  private get collection() {
    return this.db.collection<ContentObject>(COLLECTIONS.contentObjects);
  }

  private static key(spaceId: string, hash: string): string {
    return `${spaceId}:${hash}`;
  }

  /** Stores records; those that exist already (same space and hash) are skipped. */
  async putMany(spaceId: string, records: Iterable<[string, ContentObjectKind, unknown]>): Promise<void> {
    const docs: ContentObject[] = [];
    for (const [hash, kind, body] of records) {
      const _id = ContentObjectsRepository.key(spaceId, hash);
      if (this.cache.get(_id) !== undefined) continue;
      docs.push({ _id, spaceId, kind, body });
    }
    if (!docs.length) return;
    try {
      await this.collection.insertMany(docs, { ordered: false });
    } catch (err) {
      const errors = err instanceof MongoBulkWriteError ? (Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors]) : null;
      if (!errors || errors.some((e) => e.code !== DUPLICATE_KEY)) throw err;
    }
    for (const d of docs) this.cache.set(d._id, d.body);
  }

  /** The records with these hashes that exist. */
  async getMany<T>(spaceId: string, hashes: readonly string[]): Promise<Map<string, T>> {
    const out = new Map<string, T>();
    const missing: string[] = [];
    for (const hash of new Set(hashes)) {
      const hit = this.cache.get(ContentObjectsRepository.key(spaceId, hash));
      if (hit !== undefined) out.set(hash, hit as T);
      else missing.push(ContentObjectsRepository.key(spaceId, hash));
    }
    for (let i = 0; i < missing.length; i += 1000) {
      const batch = missing.slice(i, i + 1000);
      for await (const doc of this.collection.find({ _id: { $in: batch } }, { projection: { body: 1 } })) {
        const hash = doc._id.slice(spaceId.length + 1);
        this.cache.set(doc._id, doc.body);
        out.set(hash, doc.body as T);
      }
    }
    return out;
  }

  async get<T>(spaceId: string, hash: string): Promise<T | undefined> {
    return (await this.getMany<T>(spaceId, [hash])).get(hash);
  }

  /** Copies every record of one space to another (duplicating a space copies its content). */
  async copySpace(fromSpaceId: string, toSpaceId: string): Promise<void> {
    let batch: ContentObject[] = [];
    const flush = async () => {
      if (!batch.length) return;
      await this.collection.insertMany(batch, { ordered: false }).catch((err) => {
        if (!(err instanceof MongoBulkWriteError)) throw err;
      });
      batch = [];
    };
    for await (const doc of this.collection.find({ spaceId: fromSpaceId })) {
      batch.push({ ...doc, _id: ContentObjectsRepository.key(toSpaceId, doc._id.slice(fromSpaceId.length + 1)), spaceId: toSpaceId });
      if (batch.length >= 500) await flush();
    }
    await flush();
  }

  async removeOfSpace(spaceId: string): Promise<void> {
    await this.collection.deleteMany({ spaceId });
  }
}
