import * as os from 'node:os';
import { Db, IndexDescription, MongoClient, MongoClientOptions, MongoServerError } from 'mongodb';

/**
 * One MongoDB connection per service, to a replica set (locally a single node), so per-document
 * atomicity, multi-document transactions and every index type are available. Servers are selected
 * within a few seconds so a missing database fails fast (the driver would wait 30 s).
 */
export interface MongoHandle {
  client: MongoClient;
  db: Db;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * A client whose operating-system facts are given rather than loaded: the driver otherwise loads
 * them with a dynamic `import()`, which fails inside Jest's sandbox and leaves the handshake without
 * the metadata a real server requires.
 */
export function newMongoClient(url: string, options: MongoClientOptions = {}): MongoClient {
  return new MongoClient(url, { runtimeAdapters: { os }, serverSelectionTimeoutMS: 3000, connectTimeoutMS: 3000, ...options });
}

/** A first connection is tried this many times (each within the few seconds above) before a start fails. */
const CONNECT_ATTEMPTS = 5;

export async function connectMongo(url: string, dbName: string, appName: string): Promise<MongoHandle> {
  // A busy host can miss one handshake deadline: a few attempts, each with a fresh client, then the start fails.
  let client: MongoClient;
  for (let attempt = 1; ; attempt += 1) {
    client = newMongoClient(url, { appName, retryWrites: true, maxPoolSize: 20 });
    try {
      await client.connect();
      break;
    } catch (err) {
      await client.close().catch(() => undefined);
      if (attempt >= CONNECT_ATTEMPTS) throw err;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
  const db = client.db(dbName);
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

/** Creates the indexes every query path needs; safe to run at every start (existing ones are no-ops). */
export async function ensureIndexes(db: Db, plan: IndexPlan): Promise<void> {
  for (const [collection, indexes] of Object.entries(plan)) {
    if (indexes.length) await db.collection(collection).createIndexes(indexes);
  }
}

export function isDuplicateKey(err: unknown): boolean {
  return err instanceof MongoServerError && err.code === 11000;
}

export type { ClientSession, Collection, Db, Document } from 'mongodb';

/** A condition matching values that contain `text` literally (regex metacharacters escaped). */
export function containing(text: string): { $regex: string } {
  return { $regex: text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') };
}
