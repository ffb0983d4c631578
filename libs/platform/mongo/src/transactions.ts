import { ClientSession, Db, MongoError } from 'mongodb';
import { conflict } from '@bindery/platform/errors';

/**
 * Thrown by transaction work that found what it read has changed (a version check failed): the
 * whole transaction runs again from its first read.
 */
export class StaleRead extends Error {
  constructor(what: string) {
    super(`${what} changed while this change was being made`);
    this.name = 'StaleRead';
  }
}

const hasLabel = (err: unknown, label: string) => err instanceof MongoError && err.hasErrorLabel(label);

function retryable(err: unknown): boolean {
  return err instanceof StaleRead || hasLabel(err, 'TransientTransactionError');
}

/** A short, growing, jittered pause so that contending writers do not retry in lockstep. */
function pause(attempt: number): Promise<void> {
  const ms = Math.min(50, 2 ** attempt) * (0.5 + Math.random());
  return new Promise((r) => setTimeout(r, ms));
}

async function commit(session: ClientSession): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await session.commitTransaction();
      return;
    } catch (err) {
      // The commit may or may not have applied; committing again is safe and tells which.
      if (attempt < 5 && hasLabel(err, 'UnknownTransactionCommitResult')) continue;
      throw err;
    }
  }
}

/**
 * Runs `work` as one multi-document transaction (snapshot reads, majority writes): all of its writes
 * apply or none do. Keep the work short: reads and writes only, no calls to other services.
 * Transient failures (write conflicts with a concurrent transaction, an election) and `StaleRead`
 * run the work again from the start; after `maxAttempts` the caller gets a 409 conflict.
 */
export async function withTransaction<T>(db: Db, work: (session: ClientSession) => Promise<T>, { maxAttempts = 10 } = {}): Promise<T> {
  const session = db.client.startSession();
  try {
    for (let attempt = 1; ; attempt++) {
      session.startTransaction({ readConcern: { level: 'snapshot' }, writeConcern: { w: 'majority' } });
      try {
        const result = await work(session);
        await commit(session);
        return result;
      } catch (err) {
        if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
        if (!retryable(err)) throw err;
        if (attempt >= maxAttempts) throw conflict('The resource was changed by another request at the same time; try again.');
        await pause(attempt);
      }
    }
  } finally {
    await session.endSession();
  }
}

/** Runs `work` as one transaction: what every service's use cases are given. */
export type Transaction = <T>(work: (session: ClientSession) => Promise<T>) => Promise<T>;

/**
 * A service's transactions: `withTransaction`, then a wake-up of the outbox relay. Events written
 * inside a transaction become visible only at its commit, so the relay is told after the commit
 * (and not at all when the transaction fails: nothing was recorded).
 */
export function transactionsRelayingEvents(db: Db, eventsRecorded: () => void, options: { maxAttempts?: number } = {}): Transaction {
  return async (work) => {
    const result = await withTransaction(db, work, options);
    eventsRecorded();
    return result;
  };
}
