import type { Db } from '@bindery/platform/mongo';
import { COLLECTIONS } from '@bindery/content/data-access';
import { newId } from '@bindery/shared/ids';

export type ImportStatus = 'in-progress' | 'completed' | 'failed';

/** One website import, as the `imports` collection records it while it runs and after. */
export interface ImportJob {
  _id: string;
  spaceId: string;
  organizationId: string;
  /** the start URL's origin (never the full URL: it may carry credentials) */
  host: string;
  source: 'website';
  status: ImportStatus;
  pages: number;
  queued: number;
  bytes: number;
  files?: number;
  skipped?: number;
  revisionId?: string;
  error?: string;
  startedAt: Date;
  updatedAt: Date;
  finishedAt?: Date;
}

/** Job records of website imports: progress while they run, the outcome after. */
export class ImportJobs {
  private readonly jobs;

  constructor(db: Db) {
    this.jobs = db.collection<ImportJob>(COLLECTIONS.imports);
  }

  async start(spaceId: string, organizationId: string, host: string, now: Date): Promise<string> {
    const _id = newId();
    await this.jobs.insertOne({ _id, spaceId, organizationId, host, source: 'website', status: 'in-progress', pages: 0, queued: 0, bytes: 0, startedAt: now, updatedAt: now });
    return _id;
  }

  async progress(id: string, fields: Pick<ImportJob, 'pages' | 'queued' | 'bytes'>, now: Date): Promise<void> {
    await this.jobs.updateOne({ _id: id, status: 'in-progress' }, { $set: { ...fields, updatedAt: now } });
  }

  async finish(id: string, fields: Partial<Pick<ImportJob, 'status' | 'files' | 'skipped' | 'revisionId' | 'error' | 'pages'>>, now: Date): Promise<void> {
    await this.jobs.updateOne({ _id: id }, { $set: { ...fields, updatedAt: now, finishedAt: now } });
  }

  get(id: string): Promise<ImportJob | null> {
    return this.jobs.findOne({ _id: id });
  }

  /** The records of a purged space's imports. */
  async removeOfSpace(spaceId: string): Promise<void> {
    await this.jobs.deleteMany({ spaceId });
  }
}
