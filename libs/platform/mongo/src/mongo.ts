import * as os from 'node:os';
import { Db, IndexDescription, MongoClient, MongoClientOptions, MongoServerError } from 'mongodb';

/**
 * One MongoDB client per process and server, to a replica set (locally a single node), so per-document
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

/** The clients of this process by server URL, shared by every service it hosts (apps/bindery), with their users. */
const shared = new Map<string, { client: Promise<MongoClient>; users: number }>();

async function connectClient(url: string): Promise<MongoClient> {
  // A busy host can miss one handshake deadline: a few attempts, each with a fresh client, then the start fails.
  for (let attempt = 1; ; attempt += 1) {
    const client = newMongoClient(url, { appName: 'bindery', retryWrites: true, maxPoolSize: 50 });
    try {
      await client.connect();
      return client;
    } catch (err) {
      await client.close().catch(() => undefined);
      if (attempt >= CONNECT_ATTEMPTS) throw err;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

/**
 * A service's database on the server at `url`. The services one process hosts share one client for
 * that server (one connection pool and one server monitor, not one per service); each keeps its own
 * database, and the client closes when the last of them closes its handle.
 */
export async function connectMongo(url: string, dbName: string, _appName: string): Promise<MongoHandle> {
  let entry = shared.get(url);
  if (!entry) {
    entry = { client: connectClient(url), users: 0 };
    shared.set(url, entry);
    entry.client.catch(() => shared.delete(url));
  }
  entry.users += 1;
  const taken = entry;
  let client: MongoClient;
  try {
    client = await taken.client;
  } catch (err) {
    taken.users -= 1;
    throw err;
  }
  const db = client.db(dbName);
  let closed = false;
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
    async close() {
      if (closed) return;
      closed = true;
      taken.users -= 1;
      if (taken.users > 0) return;
      if (shared.get(url) === taken) shared.delete(url);
      await client.close();
    },
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
