import { Collection, Db, Document, IndexDescription, MongoClient, MongoServerError } from 'mongodb';
import { isFerretDb, serializeWrites } from './serialized-writes';

/**
 * One MongoDB connection per service. Servers are selected within a few seconds so a missing
 * database fails fast (the driver would wait 30 s), and features are limited to what both real
 * MongoDB and the local MongoDB-wire server support (docs/mongodb-differences.md).
 */
export interface MongoHandle {
  client: MongoClient;
  db: Db;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export async function connectMongo(url: string, dbName: string, appName: string): Promise<MongoHandle> {
  const client = new MongoClient(url, {
    appName,
    serverSelectionTimeoutMS: 3000,
    connectTimeoutMS: 3000,
    retryWrites: true,
    maxPoolSize: 20,
  });
  await client.connect();
  const raw = client.db(dbName);
  const db = (await isFerretDb(raw)) ? serializeWrites(raw) : raw;
  return {
    client,
    db,
    async ping() {
      try {
        await db.command({ ping: 1 }, { timeoutMS: 2000 });
        return true;
      } catch {
        return false;
      }
    },
    close: () => client.close(),
  };
}

export type IndexPlan = Record<string, IndexDescription[]>;

/**
 * Creates the indexes every query path needs; safe to run at every start. One createIndexes command
 * per index: FerretDB 1.24 crashes the connection when one command re-declares several existing ones.
 */
export async function ensureIndexes(db: Db, plan: IndexPlan): Promise<void> {
  for (const [collection, indexes] of Object.entries(plan)) {
    for (const index of indexes) await db.collection(collection).createIndexes([index]);
  }
}

export function isDuplicateKey(err: unknown): boolean {
  return err instanceof MongoServerError && err.code === 11000;
}

export type { Collection, Db, Document };

/** A condition matching values that contain `text` literally (regex metacharacters escaped). */
export function containing(text: string): { $regex: string } {
  return { $regex: text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') };
}
