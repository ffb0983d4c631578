import { connectMongo, Db } from '@bindery/platform/mongo';
import { FINISHED, RunRecord, RUNS_COLLECTION } from '@bindery/platform/runs';
import { envPrefix, SystemUnderTest, waitForRun } from '@bindery/shared/testing';
import type { Client } from './http-client';

/**
 * Git sync's runs as the end-to-end tests reach them: the routes answer 204 without a run id and no
 * route lists the runs, so a test reads them from git-sync's database.
 */
export async function gitSyncRuns(sut: SystemUnderTest) {
  const mongo = await connectMongo(sut.env.MONGODB_URL, sut.env[`${envPrefix('git-sync')}_DB`], 'tests');
  const runs = (db: Db) => db.collection<RunRecord>(RUNS_COLLECTION);
  return {
    db: mongo.db,
    close: () => mongo.close(),
    /** The runs of a space, oldest first. */
    of: (spaceId: string) => runs(mongo.db).find({ 'input.spaceId': spaceId }).sort({ createdAt: 1, _id: 1 }).toArray(),
    /** Starts an import (or an export) and answers the run it created, once finished (or as it stands, with `wait: false`). */
    async start(client: Client, spaceId: string, op: 'import' | 'export', body: Record<string, unknown>, { wait = true, timeoutMs = 60_000 } = {}) {
      const before = new Set((await this.of(spaceId)).map((r) => r._id));
      const res = await client.post(`/v1/spaces/${spaceId}/git/${op}`, { ref: 'refs/heads/main', ...(op === 'export' ? { commitMessage: 'Sync' } : {}), ...body });
      if (res.status !== 204) return { status: res.status, body: res.body, run: undefined };
      const run = (await this.of(spaceId)).find((r) => !before.has(r._id));
      if (!run) throw new Error(`no new ${op} run for ${spaceId}`);
      return { status: res.status, body: res.body, run: wait ? await waitForRun(mongo.db, run._id, [...FINISHED], timeoutMs) : run };
    },
    wait: (runId: string, timeoutMs = 60_000) => waitForRun(mongo.db, runId, [...FINISHED], timeoutMs),
    /** The newest import (or export) run of a space, once finished. */
    async last(spaceId: string, op: 'import' | 'export', timeoutMs = 60_000): Promise<RunRecord> {
      const run = await runs(mongo.db)
        .find({ 'input.spaceId': spaceId, kind: `git-sync.${op}` })
        .sort({ createdAt: -1 })
        .limit(1)
        .next();
      if (!run) throw new Error(`no ${op} run for ${spaceId}`);
      return waitForRun(mongo.db, run._id, [...FINISHED], timeoutMs);
    },
  };
}
