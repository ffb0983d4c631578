import { ChangeFeed, ClientSession, Collection, Db, Document, watchCollections } from '@bindery/platform/mongo';
import { newId } from '@bindery/shared/ids';
import { decodeCursor, encodeCursor, Page, PageRequest, resolveLimit } from '@bindery/shared/pagination';
import { RunProgress, RunRecord, RunStatus, RUNS_COLLECTION } from './run-model';
import { backoffAfter, DEFAULT_TIMINGS, RunTimings } from './timings';

export interface EnqueueRequest {
  kind: string;
  input?: Record<string, unknown>;
  organizationId?: string;
  createdBy?: string;
  /** enqueueing the same key (for the same kind) again answers the run it created first */
  idempotencyKey?: string;
  maxAttempts?: number;
  /** not before (default: now) */
  dueAt?: Date;
  /** set by schedules; finished scheduled runs expire */
  schedule?: string;
  /** runs sharing this key never run at once: one waits (pending) while another is in progress */
  serialKey?: string;
}

export interface Enqueued {
  run: RunRecord;
  /** false when an idempotency key named a run that already existed */
  created: boolean;
}

/** What a list of runs is narrowed to: these statuses, and input fields equal to a value (or one of `{$in}`). */
export interface RunFilter {
  statuses?: RunStatus[];
  input?: Record<string, string | { $in: string[] }>;
}

/** What the worker's heartbeat learnt: the lease is lost (another worker or a cancel took it), or still held. */
export type Heartbeat = { held: false } | { held: true; cancelRequested: boolean };

/**
 * The runs of one service, in its own database. Every state change is a conditional write on the
 * run's status and, while it runs, its lease owner, so two workers never both finish, fail or
 * retry the same attempt, and a worker that lost its lease changes nothing.
 */
export class RunStore {
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly db: Db,
    readonly timings: RunTimings = DEFAULT_TIMINGS,
    readonly clock: () => number = Date.now,
  ) {}

  private get runs(): Collection<RunRecord> {
    return this.db.collection<RunRecord>(RUNS_COLLECTION);
  }

  private now(): Date {
    return new Date(this.clock());
  }

  /** Called after a local enqueue is visible (its transaction ended), so an idle worker starts it at once. */
  onEnqueued(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(session?: ClientSession): void {
    const wake = () => this.listeners.forEach((l) => l());
    // Inside a transaction the run is invisible until commit; the session ends after it.
    if (session?.inTransaction()) session.once('ended', wake);
    else wake();
  }

  /**
   * Enqueues a run, inside `session`'s transaction when given (the run exists only if the business
   * write that asked for it commits). With an idempotency key, a second enqueue answers the first run.
   */
  async enqueue(req: EnqueueRequest, session?: ClientSession): Promise<Enqueued> {
    const now = this.now();
    const record: RunRecord = {
      _id: newId(),
      kind: req.kind,
      status: 'pending',
      input: req.input ?? {},
      attempt: 0,
      maxAttempts: req.maxAttempts ?? this.timings.maxAttempts,
      dueAt: req.dueAt ?? now,
      createdAt: now,
      updatedAt: now,
    };
    if (req.organizationId) record.organizationId = req.organizationId;
    if (req.createdBy) record.createdBy = req.createdBy;
    if (req.schedule) record.schedule = req.schedule;
    if (req.serialKey) record.serialKey = req.serialKey;
    if (req.idempotencyKey === undefined) {
      await this.runs.insertOne(record, { session });
      this.notify(session);
      return { run: record, created: true };
    }
    record.idempotencyKey = req.idempotencyKey;
    // An upsert on the unique key: the server retries a concurrent duplicate insert as an update, so both callers get the one run.
    const { _id, kind, idempotencyKey, ...rest } = record;
    const run = await this.runs.findOneAndUpdate(
      { kind, idempotencyKey },
      { $setOnInsert: { _id, ...rest } },
      { upsert: true, returnDocument: 'after', session, includeResultMetadata: false },
    );
    const created = run!._id === _id;
    if (created) this.notify(session);
    return { run: run!, created };
  }

  async get(id: string, session?: ClientSession): Promise<RunRecord | null> {
    return this.runs.findOne({ _id: id }, { session });
  }

  /**
   * Runs of a kind in an organization, newest first, a keyset page at a time. `where` narrows them
   * (statuses, fields of their input); the organization's index serves the order.
   */
  async listByOrganization(organizationId: string, kind: string, page: PageRequest = {}, where: RunFilter = {}): Promise<Page<RunRecord>> {
    const limit = resolveLimit(page.limit);
    const after = decodeCursor(page.page);
    const base: Document = { organizationId, kind };
    if (where.statuses) base['status'] = { $in: where.statuses };
    for (const [field, value] of Object.entries(where.input ?? {})) base[`input.${field}`] = value;
    const range = after ? { $or: [{ createdAt: { $lt: new Date(after.k as number) } }, { createdAt: new Date(after.k as number), _id: { $lt: after.id } }] } : {};
    const [rows, count] = await Promise.all([
      this.runs
        .find({ ...base, ...range } as Document)
        .sort({ createdAt: -1, _id: -1 })
        .limit(limit + 1)
        .toArray(),
      this.runs.countDocuments(base as Document),
    ]);
    const items = rows.slice(0, limit);
    const out: Page<RunRecord> = { items, count };
    const last = items[items.length - 1];
    if (rows.length > limit && last) out.nextPage = encodeCursor({ id: last._id, k: last.createdAt.getTime() });
    return out;
  }

  /**
   * Cancels a run: a pending one at once; one in progress is flagged and its worker aborts it at its
   * next heartbeat. A finished run is left as it is. Answers the run as it now stands (null if unknown).
   */
  async cancel(id: string): Promise<RunRecord | null> {
    const now = this.now();
    const queued = await this.runs.findOneAndUpdate(
      { _id: id, status: 'pending' },
      { $set: { status: 'cancelled', completedAt: now, updatedAt: now } },
      { returnDocument: 'after' },
    );
    if (queued) return queued;
    const running = await this.runs.findOneAndUpdate({ _id: id, status: 'in-progress' }, { $set: { cancelRequested: true, updatedAt: now } }, { returnDocument: 'after' });
    return running ?? this.get(id);
  }

  /** Which of these runs ended without completing (failed or cancelled): whoever waited on them settles what they left. */
  async endedAmong(ids: string[]): Promise<Pick<RunRecord, '_id' | 'status' | 'reason'>[]> {
    if (!ids.length) return [];
    return this.runs.find({ _id: { $in: ids }, status: { $in: ['failed', 'cancelled'] } }, { projection: { _id: 1, status: 1, reason: 1 } }).toArray();
  }

  /**
   * Makes these runs due now when they wait for a later `dueAt` (a retry's backoff): what they waited
   * for is known to be over. Runs in progress or finished are left alone. Answers how many moved.
   */
  async hurry(ids: string[]): Promise<number> {
    if (!ids.length) return 0;
    const now = this.now();
    const r = await this.runs.updateMany({ _id: { $in: ids }, status: 'pending', dueAt: { $gt: now } }, { $set: { dueAt: now, updatedAt: now } });
    if (r.modifiedCount) this.notify();
    return r.modifiedCount;
  }

  /**
   * Claims one due run of these kinds for `owner`: a pending run whose time has come, or a run in
   * progress whose lease lapsed (its worker died) and that has attempts left. One conditional
   * update, so concurrent workers never claim the same run.
   *
   * A run with a `serialKey` is passed over while another run of that key holds a live lease. Two
   * workers claiming runs of one key at the same moment both check after their claim (each claim is
   * written before its check, so at least one of them sees the other): one that sees another run of its
   * key in progress gives its claim back untouched and looks further, so two runs of a key never run at once.
   */
  async claim(kinds: string[], owner: string): Promise<RunRecord | null> {
    if (!kinds.length) return null;
    const yielded: string[] = [];
    for (let tries = 0; tries < 5; tries++) {
      const now = this.now();
      const busy = await this.runs.distinct('serialKey', { status: 'in-progress', serialKey: { $exists: true }, leaseUntil: { $gte: now } } as Document);
      const run = await this.claimOne(kinds, owner, now, busy as string[], yielded);
      if (!run?.serialKey) return run;
      const other = await this.runs.countDocuments({ serialKey: run.serialKey, status: 'in-progress', _id: { $ne: run._id } }, { limit: 1 });
      if (!other) return run;
      await this.giveBack(run._id, owner);
      yielded.push(run._id);
    }
    return null;
  }

  private claimOne(kinds: string[], owner: string, now: Date, busyKeys: string[], skip: string[]): Promise<RunRecord | null> {
    const lapsed = { status: 'in-progress', leaseUntil: { $lt: now }, cancelRequested: { $ne: true }, $expr: { $lt: ['$attempt', '$maxAttempts'] } };
    const filter: Document = { kind: { $in: kinds }, $or: [{ status: 'pending', dueAt: { $lte: now } }, lapsed] };
    if (busyKeys.length) filter['serialKey'] = { $nin: busyKeys };
    if (skip.length) filter['_id'] = { $nin: skip };
    const update: Document[] = [
      {
        $set: {
          status: 'in-progress',
          leaseOwner: owner,
          leaseUntil: new Date(now.getTime() + this.timings.leaseMs),
          attempt: { $add: ['$attempt', 1] },
          startedAt: { $ifNull: ['$startedAt', now] },
          updatedAt: now,
        },
      },
    ];
    return this.runs.findOneAndUpdate(filter, update, { sort: { dueAt: 1 }, returnDocument: 'after' });
  }

  /** Undoes a claim that found another run of its key in progress: pending, the attempt (and a first start) not counted. */
  private async giveBack(id: string, owner: string): Promise<void> {
    const now = this.now();
    await this.runs.updateOne({ _id: id, status: 'in-progress', leaseOwner: owner }, [
      {
        $set: {
          status: 'pending',
          updatedAt: now,
          // marks a give-back, which wakes no worker (watch): the run was due and claimable all along
          givenBackAt: now,
          attempt: { $subtract: ['$attempt', 1] },
          startedAt: { $cond: [{ $lte: ['$attempt', 1] }, '$$REMOVE', '$startedAt'] },
        },
      },
      { $unset: ['leaseOwner', 'leaseUntil'] },
    ]);
  }

  /**
   * Settles runs whose worker died and that may not be taken over: out of attempts (failed), or
   * asked to stop (cancelled). Answers how many were settled.
   */
  async settleAbandoned(kinds: string[]): Promise<number> {
    if (!kinds.length) return 0;
    const now = this.now();
    const dead = { kind: { $in: kinds }, status: 'in-progress' as const, leaseUntil: { $lt: now } };
    const unset = { leaseOwner: '' as const, leaseUntil: '' as const };
    const cancelled = await this.runs.updateMany({ ...dead, cancelRequested: true }, { $set: { status: 'cancelled', completedAt: now, updatedAt: now }, $unset: unset });
    const failed = await this.runs.updateMany({ ...dead, cancelRequested: { $ne: true }, $expr: { $gte: ['$attempt', '$maxAttempts'] } } as Document, {
      $set: { status: 'failed', reason: 'The worker running it stopped responding on every attempt.', completedAt: now, updatedAt: now },
      $unset: unset,
    });
    return cancelled.modifiedCount + failed.modifiedCount;
  }

  /** Renews `owner`'s lease (and records progress); tells whether it still holds the run and whether a cancel was asked. */
  async heartbeat(id: string, owner: string, progress?: RunProgress): Promise<Heartbeat> {
    const now = this.now();
    const set: Document = { leaseUntil: new Date(now.getTime() + this.timings.leaseMs), updatedAt: now };
    if (progress) set['progress'] = progress;
    const run = await this.runs.findOneAndUpdate(
      { _id: id, status: 'in-progress', leaseOwner: owner },
      { $set: set },
      { returnDocument: 'after', projection: { cancelRequested: 1 } },
    );
    return run ? { held: true, cancelRequested: run.cancelRequested === true } : { held: false };
  }

  async complete(id: string, owner: string, result: Record<string, unknown> | undefined, progress?: RunProgress): Promise<boolean> {
    return this.finish(id, owner, { status: 'completed', ...(result ? { result } : {}), ...(progress ? { progress } : {}) }, true);
  }

  async markCancelled(id: string, owner: string): Promise<boolean> {
    return this.finish(id, owner, { status: 'cancelled' }, true);
  }

  /** Fails `owner`'s attempt: pending again after a backoff while attempts remain, else failed with `reason`. */
  async failAttempt(run: RunRecord, owner: string, reason: string, retry: boolean): Promise<'retrying' | 'failed' | 'lost'> {
    const now = this.now();
    if (retry && run.attempt < run.maxAttempts) {
      const dueAt = new Date(now.getTime() + backoffAfter(run.attempt, this.timings));
      const ok = await this.finish(run._id, owner, { status: 'pending', reason, dueAt }, false);
      return ok ? 'retrying' : 'lost';
    }
    const attempts = run.attempt === 1 ? '1 attempt' : `${run.attempt} attempts`;
    const ok = await this.finish(run._id, owner, { status: 'failed', reason: retry ? `${reason} (gave up after ${attempts})` : reason }, true);
    return ok ? 'failed' : 'lost';
  }

  /** Gives a run back untouched (the worker stops): pending at once, this attempt not counted. */
  async release(id: string, owner: string): Promise<boolean> {
    const now = this.now();
    const r = await this.runs.updateOne(
      { _id: id, status: 'in-progress', leaseOwner: owner },
      { $set: { status: 'pending', dueAt: now, updatedAt: now }, $unset: { leaseOwner: '', leaseUntil: '' }, $inc: { attempt: -1 } },
    );
    return r.modifiedCount === 1;
  }

  /**
   * Removes the runs of a kind whose input has these values (what was purged takes its runs along);
   * a worker still running one loses it at its next heartbeat and writes nothing. Answers how many.
   */
  async removeOf(kind: string, input: Record<string, string>): Promise<number> {
    const filter: Document = { kind };
    for (const [field, value] of Object.entries(input)) filter[`input.${field}`] = value;
    return (await this.runs.deleteMany(filter)).deletedCount;
  }

  /**
   * Reports, from any process, the writes that may give a worker something to do: a run enqueued, a
   * run made pending again (released, retried after a backoff, given back) or finished (a run of its
   * serial key or schedule may go now) — `onWork` — and a cancel asked of a run in progress —
   * `onCancel(id)`. Claims and heartbeats are not reported. `onGap`: the watch broke (it reopens
   * by itself); `onLive`: it is open, at first and after each reopening.
   */
  watch(listener: { onWork(): void; onCancel(id: string): void; onGap(): void; onLive(): void }): ChangeFeed {
    return watchCollections(this.db, {
      collections: [RUNS_COLLECTION],
      match: {
        $or: [
          { operationType: { $in: ['insert', 'replace'] } },
          {
            operationType: 'update',
            'updateDescription.updatedFields.status': { $in: ['pending', 'completed', 'failed', 'cancelled'] },
            'updateDescription.updatedFields.givenBackAt': { $exists: false },
          },
          { operationType: 'update', 'updateDescription.updatedFields.cancelRequested': true },
        ],
      },
      project: { operationType: 1, 'updateDescription.updatedFields.cancelRequested': 1 },
      onChange: (change) => {
        if (change['updateDescription']?.updatedFields?.cancelRequested === true) listener.onCancel(String(change['documentKey']?._id));
        else listener.onWork();
      },
      onGap: listener.onGap,
      onLive: listener.onLive,
    });
  }

  /**
   * When the next run of these kinds becomes claimable without anyone writing: the earliest future
   * `dueAt` of a pending run (a retry after its backoff, a run enqueued for later), or the earliest
   * future end of another worker's lease (a dead worker's run is taken over then). Undefined: none.
   */
  async nextDueAt(kinds: string[], owner: string): Promise<number | undefined> {
    if (!kinds.length) return undefined;
    const now = this.now();
    const [due, lease] = await Promise.all([
      this.runs.findOne({ status: 'pending', kind: { $in: kinds }, dueAt: { $gt: now } }, { sort: { dueAt: 1 }, projection: { dueAt: 1 } }),
      this.runs.findOne(
        { status: 'in-progress', leaseUntil: { $gt: now }, kind: { $in: kinds }, leaseOwner: { $ne: owner } },
        { sort: { leaseUntil: 1 }, projection: { leaseUntil: 1 } },
      ),
    ]);
    const times = [due?.dueAt?.getTime(), lease?.leaseUntil?.getTime()].filter((t): t is number => t !== undefined);
    return times.length ? Math.min(...times) : undefined;
  }

  /** Whether a run of this schedule is still pending or in progress (a new occurrence then waits). */
  async scheduleBusy(schedule: string): Promise<boolean> {
    return (await this.runs.countDocuments({ schedule, status: { $in: ['pending', 'in-progress'] } }, { limit: 1 })) > 0;
  }

  private expiry(now: Date): Document {
    return { expireAt: new Date(now.getTime() + this.timings.scheduledRetentionMs) };
  }

  private async finish(id: string, owner: string, set: Document, final: boolean): Promise<boolean> {
    const now = this.now();
    const done: Document = { ...set, updatedAt: now };
    if (final) done['completedAt'] = now;
    // One pipeline write: values are literals (a result may hold strings that start with `$`), and
    // only scheduled runs expire (a run a person asked for stays to be read).
    const literal = Object.fromEntries(Object.entries(done).map(([k, v]) => [k, { $literal: v }]));
    const expireAt = final ? { expireAt: { $cond: [{ $gt: ['$schedule', null] }, { $literal: this.expiry(now).expireAt }, '$$REMOVE'] } } : {};
    const r = await this.runs.updateOne({ _id: id, status: 'in-progress', leaseOwner: owner }, [{ $set: { ...literal, ...expireAt } }, { $unset: ['leaseOwner', 'leaseUntil'] }]);
    return r.modifiedCount === 1;
  }
}
