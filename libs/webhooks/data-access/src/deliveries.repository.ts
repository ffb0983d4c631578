import { ClientSession, Db } from 'mongodb';
import { Repository } from '@bindery/platform/mongo';
import type { DeliveryAttemptRecord, DeliveryQueueRecord, DeliveryRecord, DeliveryStatus } from '@bindery/webhooks/domain';
import { COLLECTIONS } from './indexes';

/** Deliveries and their queues (one per webhook and resource): every query of both. */
export class DeliveriesRepository extends Repository<DeliveryRecord> {
  constructor(db: Db) {
    super(db, COLLECTIONS.deliveries);
  }

  private get queues() {
    return this.db.collection<DeliveryQueueRecord>(COLLECTIONS.queues);
  }

  /** Whether the delivery of an event to a webhook (`<webhookId>/<eventId>`) is recorded already (a redelivered Kafka event). */
  async recorded(once: string, session?: ClientSession): Promise<boolean> {
    return !!(await this.findOne({ once }, { session }));
  }

  /** Records a delivery (a second one of the same `once` breaks the unique index: check `recorded` first in the transaction). */
  async add(record: DeliveryRecord, session?: ClientSession): Promise<void> {
    await this.insertRecord(record, [], session);
  }

  /** Of these `once` keys, those recorded already (a redelivered batch). */
  async recordedAmong(onces: readonly string[], session?: ClientSession): Promise<Set<string>> {
    if (!onces.length) return new Set();
    const rows = await this.collection.find({ once: { $in: [...onces] } } as never, { session, projection: { once: 1 } }).toArray();
    return new Set(rows.map((r) => (r as { once?: string }).once ?? ''));
  }

  /** Records deliveries in one write (check `recordedAmong` first in the transaction). */
  async addMany(records: readonly DeliveryRecord[], session?: ClientSession): Promise<void> {
    if (records.length) await this.collection.insertMany(records.map((r) => ({ ...r })) as never, { session });
  }

  findById(id: string) {
    return this.findOne({ _id: id });
  }

  get(webhookId: string, id: string, session?: ClientSession) {
    return this.findOne({ _id: id, webhookId }, { session });
  }

  /** A page of a webhook's deliveries, newest first. */
  page(webhookId: string, limit: number, after?: { k?: string | number; id: string }) {
    return this.keysetPage({ webhookId }, { key: 'createdAt', direction: -1, after, limit });
  }

  count(webhookId: string) {
    return this.countWhere({ webhookId });
  }

  /**
   * Takes a place in the queue for a new delivery: its sequence number, and whether the queue was idle
   * (the delivery may be sent now; the queue is busy from here) or an earlier delivery holds it. The
   * queue document is written either way, so a transaction doing this conflicts with one handing the
   * turn on.
   */
  async takePlace(queue: string, at: string, session: ClientSession): Promise<{ seq: number; idle: boolean }> {
    const before = await this.queues.findOneAndUpdate(
      { _id: queue },
      { $set: { busy: true, updatedAt: at }, $inc: { seq: 1 } },
      { upsert: true, returnDocument: 'before', session },
    );
    return { seq: (before?.seq ?? 0) + 1, idle: !before?.busy };
  }

  /**
   * Takes `count` places at once (a batch's deliveries to one queue): the first sequence number, and
   * whether the queue was idle (the first of them may be sent now).
   */
  async takePlaces(queue: string, count: number, at: string, session: ClientSession): Promise<{ first: number; idle: boolean }> {
    const before = await this.queues.findOneAndUpdate(
      { _id: queue },
      { $set: { busy: true, updatedAt: at }, $inc: { seq: count } },
      { upsert: true, returnDocument: 'before', session },
    );
    return { first: (before?.seq ?? 0) + 1, idle: !before?.busy };
  }

  /** The queue's next delivery waiting its turn, in the order of the events. */
  nextQueued(queue: string, session: ClientSession) {
    return this.findMany({ queue, status: 'queued' }, { sort: { seq: 1 }, limit: 1, session } as never).then((rows) => rows[0]);
  }

  /** Nothing more to send in this queue: the next delivery recorded takes the turn at once. */
  async releaseTurn(queue: string, at: string, session: ClientSession): Promise<void> {
    await this.queues.updateOne({ _id: queue }, { $set: { busy: false, updatedAt: at } }, { session });
  }

  /** Marks a delivery pending with the run sending it. */
  markPending(id: string, runId: string, session: ClientSession) {
    return this.updateMatched({ _id: id }, { $set: { status: 'pending', runId } }, [], { session });
  }

  /** Adds an attempt and, when it is the last, the delivery's outcome (conditional on its run, so a stale worker changes nothing). */
  recordAttempt(
    id: string,
    runId: string,
    attempt: DeliveryAttemptRecord,
    outcome: { status?: DeliveryStatus; deliveredAt?: string; nextAttemptAt?: string },
    session?: ClientSession,
  ) {
    const set: Record<string, unknown> = {};
    if (outcome.status) set['status'] = outcome.status;
    if (outcome.deliveredAt) set['deliveredAt'] = outcome.deliveredAt;
    if (outcome.nextAttemptAt) set['nextAttemptAt'] = outcome.nextAttemptAt;
    const update = { $push: { attempts: attempt }, ...(Object.keys(set).length ? { $set: set } : {}), ...(outcome.status ? { $unset: { nextAttemptAt: '' } } : {}) };
    return this.updateMatched({ _id: id, runId, status: 'pending' }, update as never, [], { session });
  }

  /** The deliveries being sent (each holds its queue's turn), `batch` at a time: their runs and queues. */
  async *pendingBatches(batch: number): AsyncGenerator<Pick<DeliveryRecord, '_id' | 'runId' | 'queue'>[]> {
    const cursor = this.collection.find({ status: 'pending' } as never, { projection: { _id: 1, runId: 1, queue: 1 }, batchSize: batch });
    const rows: Pick<DeliveryRecord, '_id' | 'runId' | 'queue'>[] = [];
    for await (const row of cursor) {
      rows.push(row as Pick<DeliveryRecord, '_id' | 'runId' | 'queue'>);
      if (rows.length >= batch) yield rows.splice(0);
    }
    if (rows.length) yield rows;
  }

  /** The runs of a webhook's deliveries waiting for a retry later than `after` (a backoff); their wait is set to `after`. */
  async retryingAfter(webhookId: string, after: string): Promise<string[]> {
    const filter = { webhookId, status: 'pending' as const, nextAttemptAt: { $gt: after } };
    const rows = await this.findMany(filter, { projection: { runId: 1 } });
    if (rows.length) await this.collection.updateMany({ ...filter, _id: { $in: rows.map((r) => r._id) } } as never, { $set: { nextAttemptAt: after } });
    return rows.flatMap((r) => (r.runId ? [r.runId] : []));
  }

  /** Ends as failed a delivery whose run ended without it (cancelled, out of attempts); conditional on that run. */
  failWithRun(id: string, runId: string, session: ClientSession) {
    return this.updateMatched({ _id: id, runId, status: 'pending' }, { $set: { status: 'failed' }, $unset: { nextAttemptAt: '' } } as never, [], { session });
  }

  /** Ends a delivery without an attempt (its webhook was deleted or disabled meanwhile). */
  skip(id: string, session: ClientSession) {
    return this.updateMatched({ _id: id, status: { $in: ['queued', 'pending'] } }, { $set: { status: 'skipped' }, $unset: { nextAttemptAt: '' } } as never, [], { session });
  }
}
