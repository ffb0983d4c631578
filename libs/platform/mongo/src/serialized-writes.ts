import { Collection, Db, Document } from 'mongodb';

/**
 * FerretDB 1.x applies an update as a read followed by a write, without isolation: two concurrent
 * updates of one document lose one of them (measured here: 50 of 50 rounds lost an update). A use
 * case and the outbox relay do update the same document concurrently, so on that server the writes
 * to each collection are run one at a time within the process. Real MongoDB is atomic per document
 * and never gets this wrapper. (One process per database is the local setup; replicas need real MongoDB.)
 */
const WRITES = new Set([
  'insertOne',
  'insertMany',
  'updateOne',
  'updateMany',
  'replaceOne',
  'deleteOne',
  'deleteMany',
  'findOneAndUpdate',
  'findOneAndReplace',
  'findOneAndDelete',
  'bulkWrite',
]);

class Queue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.then(work, work);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

export function serializeWrites(db: Db): Db {
  const queues = new Map<string, Queue>();
  const queueOf = (name: string) => {
    let q = queues.get(name);
    if (!q) queues.set(name, (q = new Queue()));
    return q;
  };
  const wrapCollection = <T extends Document>(col: Collection<T>) =>
    new Proxy(col, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof prop !== 'string' || !WRITES.has(prop) || typeof value !== 'function') return value;
        return (...args: unknown[]) => queueOf(target.collectionName).run(() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
      },
    });
  return new Proxy(db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === 'collection') return (...args: Parameters<Db['collection']>) => wrapCollection(target.collection(...args));
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Whether the server is FerretDB (it reports its own version in buildInfo). */
export async function isFerretDb(db: Db): Promise<boolean> {
  const info = await db.admin().command({ buildInfo: 1 });
  return typeof info.ferretdbVersion === 'string';
}
