import type { IndexPlan } from '@bindery/platform/mongo';

/**
 * One run model for every service. The status names are those of the GitBook API's import runs
 * (`ContentImportRun.status` in 0.202.0), so an imports endpoint maps a run 1:1.
 */
export const RUN_STATUSES = ['pending', 'in-progress', 'completed', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Statuses a run never leaves. */
export const FINISHED: readonly RunStatus[] = ['completed', 'failed', 'cancelled'];

export const RUNS_COLLECTION = 'runs';

/** How far a run got, as its handler last said (both counts optional: some work has no total). */
export interface RunProgress {
  done?: number;
  total?: number;
  message?: string;
}

/** A run as stored in the owning service's `runs` collection. */
export interface RunRecord {
  _id: string;
  kind: string;
  /** the organization the run belongs to, when it belongs to one (lists are per organization) */
  organizationId?: string;
  status: RunStatus;
  input: Record<string, unknown>;
  result?: Record<string, unknown>;
  progress?: RunProgress;
  /** why the run failed (`failed`), or why its last attempt failed (`pending` again, waiting to retry) */
  reason?: string;
  /** attempts started so far (a takeover after a crash counts as one) */
  attempt: number;
  maxAttempts: number;
  /** when a pending run may be claimed (later than `createdAt` while it waits to retry) */
  dueAt: Date;
  /** the worker holding the run and until when; absent unless `in-progress` */
  leaseOwner?: string;
  leaseUntil?: Date;
  /** set by a cancel request while the run is in progress; the worker aborts at its next heartbeat */
  cancelRequested?: boolean;
  idempotencyKey?: string;
  /** the schedule that created the run, if any */
  schedule?: string;
  /** runs sharing it never run at once (RunStore.claim) */
  serialKey?: string;
  createdBy?: string;
  createdAt: Date;
  updatedAt: Date;
  startedAt?: Date;
  completedAt?: Date;
  /** finished runs of schedules are removed after a while (a TTL index) */
  expireAt?: Date;
}

/** What every API shows of a run, as stored (dates become ISO strings in `RunJson`). */
type ShownRunFields =
  | 'kind'
  | 'organizationId'
  | 'status'
  | 'input'
  | 'result'
  | 'progress'
  | 'reason'
  | 'attempt'
  | 'maxAttempts'
  | 'cancelRequested'
  | 'createdBy'
  | 'createdAt'
  | 'updatedAt'
  | 'startedAt'
  | 'completedAt';

/** Dates as ISO strings; optional fields stay optional. */
type WithIsoDates<T> = { [K in keyof T]: Exclude<T[K], undefined> extends Date ? string : T[K] };

/** The JSON shape of a run, shared by every API that shows one: the record's shown fields, declared once (`RunRecord`). */
export type RunJson = { object: 'run'; id: string } & WithIsoDates<Pick<RunRecord, ShownRunFields>>;

/** The JSON Schema of `RunJson` (for HTTP routes that answer a run). */
export const RUN_JSON_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['object', 'id', 'kind', 'status', 'input', 'attempt', 'maxAttempts', 'createdAt', 'updatedAt'],
  properties: {
    object: { type: 'string', enum: ['run'] },
    id: { type: 'string' },
    kind: { type: 'string' },
    organizationId: { type: 'string' },
    status: { type: 'string', enum: [...RUN_STATUSES] },
    input: { type: 'object' },
    result: { type: 'object' },
    progress: {
      type: 'object',
      additionalProperties: false,
      properties: { done: { type: 'number' }, total: { type: 'number' }, message: { type: 'string' } },
    },
    reason: { type: 'string', description: 'Why the run failed, or why its last attempt failed while it waits to retry' },
    attempt: { type: 'integer' },
    maxAttempts: { type: 'integer' },
    cancelRequested: { type: 'boolean' },
    createdBy: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    startedAt: { type: 'string', format: 'date-time' },
    completedAt: { type: 'string', format: 'date-time' },
  },
} as const;

/** The indexes of `runs`: due runs per kind, lapsed leases, idempotency keys, lists per organization, expiry. */
export const RUN_INDEXES: IndexPlan = {
  [RUNS_COLLECTION]: [
    { key: { status: 1, kind: 1, dueAt: 1 }, name: 'due' },
    { key: { status: 1, leaseUntil: 1 }, name: 'leases' },
    {
      key: { kind: 1, idempotencyKey: 1 },
      name: 'idempotency',
      unique: true,
      partialFilterExpression: { idempotencyKey: { $exists: true } },
    },
    { key: { organizationId: 1, kind: 1, createdAt: -1, _id: -1 }, name: 'by_organization' },
    { key: { schedule: 1, status: 1 }, name: 'by_schedule', partialFilterExpression: { schedule: { $exists: true } } },
    { key: { expireAt: 1 }, name: 'expiry', expireAfterSeconds: 0 },
    { key: { serialKey: 1, status: 1 }, name: 'serial', partialFilterExpression: { serialKey: { $exists: true } } },
  ],
};
