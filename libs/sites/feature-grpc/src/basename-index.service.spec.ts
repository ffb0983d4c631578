import { randomBytes } from 'node:crypto';
import { identityStandIn } from '@bindery/identity/projection';
import { connectMongo, isDuplicateKey } from '@bindery/platform/mongo';
import type { SiteRecord } from '@bindery/sites/domain';
import { infraEnv, startServiceUnderTest } from '@bindery/shared/testing';
import { sitesServiceWith } from './sites-server';
import { ContentStandIn } from './testing/content-stand-in';

const T = '2026-01-01T00:00:00.000Z';
const siteOf = (organizationId: string, basename: string): SiteRecord => ({
  _id: randomBytes(8).toString('hex'),
  organizationId,
  type: 'basic',
  title: basename,
  basename,
  visibility: 'public',
  published: true,
  agentsContext: 'included',
  siteSpaces: 0,
  createdAt: T,
  updatedAt: T,
  structureVersion: 0,
});

/**
 * A database of an earlier version holds the instance-wide unique index on basenames: sites'
 * start replaces it with the per-organization one, and a second start finds nothing left to do.
 */
test('an existing database: the instance-wide basename index is dropped at start, the per-organization one takes its place', async () => {
  const database = `svc_sites_earlier_${randomBytes(4).toString('hex')}`;
  const mongo = await connectMongo(infraEnv().MONGODB_URL, database, 'tests');
  try {
    const sites = mongo.db.collection<SiteRecord>('sites');
    await sites.createIndex({ basename: 1 }, { name: 'basename_unique', unique: true });
    await sites.insertOne(siteOf('org-a', 'docs'));
    const clash = await sites.insertOne(siteOf('org-b', 'docs')).catch((err: unknown) => err);
    expect(isDuplicateKey(clash)).toBe(true);

    const start = () => startServiceUnderTest(sitesServiceWith({ accessSource: identityStandIn, connectContent: () => new ContentStandIn().clients() }), { SITES_DB: database });
    const first = await start();
    const names = async () => (await sites.indexes()).map((i) => i.name).sort();
    try {
      expect(await names()).toEqual(expect.arrayContaining(['org_basename_unique', 'basename_created']));
      expect(await names()).not.toContain('basename_unique');
      // another organization may now take the basename; the same organization still may not
      await first.running.deps.sites.insert(siteOf('org-b', 'docs'), []);
      const again = await first.running.deps.sites.insert(siteOf('org-b', 'docs'), []).catch((err: unknown) => err);
      expect(isDuplicateKey(again)).toBe(true);
    } finally {
      await first.running.stop();
    }
    // a second start on the same database: nothing to drop, nothing fails
    const second = await start();
    await second.stop();
  } finally {
    await mongo.close();
  }
});
