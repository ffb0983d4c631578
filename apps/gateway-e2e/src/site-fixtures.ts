import { randomBytes } from 'node:crypto';
import { connectMongo, Db } from '@bindery/platform/mongo';
import { COLLECTIONS, SitesRepository, SiteTokenStore } from '@bindery/sites/data-access';
import type { SiteRecord } from '@bindery/sites/domain';
import { mintSiteToken } from '@bindery/sites/feature-grpc';
import type { SystemUnderTest } from '@bindery/shared/testing';

/**
 * Sites written straight to the sites database, for end-to-end tests of what reads or serves them
 * before sites can be created through the API: a published site with root site spaces (the first
 * one its default), share links, and site tokens minted with the service's own key.
 */
export interface SitesDatabase {
  db: Db;
  close(): Promise<void>;
  /** A published site (share-link visibility unless `options` say otherwise) with one root site space per space, in order. */
  publishedSite(organizationId: string, spaceIds: string[], options?: Partial<SiteRecord>): Promise<SiteRecord & { siteSpaceIds: string[] }>;
  /** An active share link of the site; answers its id and key. */
  shareLink(site: SiteRecord): Promise<{ id: string; key: string }>;
  /** A site token of the site (through the share link, when given). */
  siteToken(site: SiteRecord, shareLinkId?: string): Promise<string>;
}

const newId = () => randomBytes(15).toString('base64url');

export async function sitesDatabase(sut: SystemUnderTest): Promise<SitesDatabase> {
  const mongo = await connectMongo(sut.env.MONGODB_URL, sut.env.SITES_DB, 'tests');
  const db = mongo.db;
  const deps = { tokens: new SiteTokenStore(db), sites: new SitesRepository(db), clock: Date.now };
  return {
    db,
    close: () => mongo.close(),
    async publishedSite(organizationId, spaceIds, options = {}) {
      const id = newId();
      const at = new Date().toISOString();
      const siteSpaceIds = spaceIds.map(() => newId());
      const site: SiteRecord = {
        _id: id,
        organizationId,
        type: 'basic',
        title: 'Docs',
        basename: `docs-${id}`,
        visibility: 'share-link',
        published: true,
        agentsContext: 'included',
        siteSpaces: spaceIds.length,
        defaultSiteSpaceId: siteSpaceIds[0],
        createdAt: at,
        updatedAt: at,
        structureVersion: 0,
        ...options,
      };
      await new SitesRepository(db).insert(site, []);
      if (spaceIds.length) {
        await db
          .collection(COLLECTIONS.siteSpaces)
          .insertMany(
            spaceIds.map((spaceId, order) => ({
              _id: siteSpaceIds[order],
              organizationId,
              siteId: id,
              spaceId,
              path: `s${order}`,
              order,
              createdAt: at,
              updatedAt: at,
            })) as never[],
          );
      }
      return { ...site, siteSpaceIds };
    },
    async shareLink(site) {
      const id = newId();
      const key = `bshare_${randomBytes(16).toString('hex')}`;
      const at = new Date().toISOString();
      await db
        .collection(COLLECTIONS.shareLinks)
        .insertOne({ _id: id, organizationId: site.organizationId, siteId: site._id, name: 'Preview', active: true, key, createdAt: at, updatedAt: at } as never);
      return { id, key };
    },
    async siteToken(site, shareLinkId) {
      return (await mintSiteToken(deps, site, shareLinkId ? { shareLinkId } : {})).token;
    },
  };
}
