import { connectMongo } from '@bindery/platform/mongo';
import { startSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { flatPages, Json } from './content-model-fixtures';
import { createOrganization, createUser } from './fixtures';
import { Client, http } from './http-client';
import { finished, runUntil, startRun } from './import-run-fixtures';
import { startTestWebsite, TestWebsite } from './website-fixtures';

// Short leases so a dead worker's run is taken over within seconds (heartbeat at most half the lease).
const LEASE_MS = 3000;
const RUN_ENV = { RUNS_LEASE_MS: String(LEASE_MS), RUNS_HEARTBEAT_MS: '500', RUNS_POLL_MS: '100', RUNS_BACKOFF_MS: '100' };

describe('a website import run survives kill -9 of content', () => {
  let sut: SystemUnderTest;
  let site: TestWebsite;
  let orgId: string;
  let admin: Client;

  // Longer than the tier: starts its own system (outbound guard open to the loopback test site).
  beforeAll(async () => {
    site = await startTestWebsite();
    sut = await startSystem({ BINDERY_OUTBOUND_ALLOW_PRIVATE: 'true', ...RUN_ENV }, { services: ['identity', 'content'], split: true });
    const owner = await createUser(sut, 'takeover-owner');
    orgId = await createOrganization(sut, owner, 'Takeover');
    admin = http(sut.baseUrl, owner.token);
  }, 180_000);
  afterAll(async () => {
    await sut?.stop();
    await site?.close();
  });

  // Longer than the tier: kills content mid-crawl and waits for the lease to lapse.
  test('killed mid-crawl, restarted: the run is taken over after the lease lapses and writes one revision', async () => {
    const spaceId = (await createSpace(admin, orgId, { title: 'Takeover' })).id as string;
    site.pageDelayMs = 150;
    const mongo = await connectMongo(sut.env.MONGODB_URL, sut.env.CONTENT_DB, 'tests');
    try {
      const started = await startRun(admin, orgId, spaceId, `${site.origin}/docs/`);
      const runId = started.id as string;
      const midCrawl = await runUntil(admin, orgId, runId, (r) => r.status === 'in-progress' && ((r.progress as Json | undefined)?.pages as number) >= 3);
      const before = await mongo.db.collection('runs').findOne({ _id: runId as never });
      expect(before).toMatchObject({ status: 'in-progress', attempt: 1 });
      const killedAt = Date.now();
      await sut.stopService('content', 'SIGKILL');
      await sut.restartService('content');
      const run = await runUntil(admin, orgId, runId, finished, 120_000);
      const doneAt = Date.now();
      expect(run.status).toBe('completed');
      const record = await mongo.db.collection('runs').findOne({ _id: runId as never });
      // the killed attempt and the takeover; the lease had to lapse first. On a loaded machine the takeover
      // itself may be retried (a call failing while content restarts), so more attempts are allowed; what
      // must hold is one completed run and one revision.
      expect(record).toMatchObject({ status: 'completed', result: { importedResources: 56, totalResources: 57 } });
      expect(record!.attempt).toBeGreaterThanOrEqual(2);
      expect(doneAt - killedAt).toBeGreaterThanOrEqual(LEASE_MS - 1000);
      const revisions = await mongo.db
        .collection('revisions')
        .find({ spaceId, mergeKey: `import:${runId}` })
        .toArray();
      expect(revisions).toHaveLength(1);
      expect(record!.result.revision).toBe(revisions[0]._id);
      expect((await admin.get(`/v1/spaces/${spaceId}`)).body.revision).toBe(revisions[0]._id);
      expect(flatPages((await admin.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages)).toHaveLength(50);
      // the figure, for docs/website-import.md
      console.log(
        JSON.stringify({
          killedAtPages: (midCrawl.progress as Json).pages,
          attempt: record!.attempt,
          status: record!.status,
          revisionsWritten: revisions.length,
          secondsFromKillToCompleted: (doneAt - killedAt) / 1000,
          leaseMs: LEASE_MS,
        }),
      );
    } finally {
      site.pageDelayMs = 0;
      await mongo.close();
    }
  }, 240_000);
});
