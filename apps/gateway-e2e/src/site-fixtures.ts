import { randomBytes } from 'node:crypto';
import { connectMongo, Db } from '@bindery/platform/mongo';
import { COLLECTIONS, SitesRepository, SiteTokenStore } from '@bindery/sites/data-access';
import type { SiteRecord } from '@bindery/sites/domain';
import { mintSiteToken } from '@bindery/sites/feature-grpc';
import type { SystemUnderTest } from '@bindery/shared/testing';
import type { Client } from './http-client';

/**
 * The sites database, for end-to-end tests of what reads or serves sites: a published site with root
 * site spaces written straight to it (the first one its default), share links, the ids of a site's
 * site spaces (no route lists them yet), and site tokens minted with the service's own key (no
 * route mints them yet).
 */
export interface SitesDatabase {
  db: Db;
  close(): Promise<void>;
  /** A published site (share-link visibility unless `options` say otherwise) with one root site space per space, in order. */
  publishedSite(organizationId: string, spaceIds: string[], options?: Partial<SiteRecord>): Promise<SiteRecord & { siteSpaceIds: string[] }>;
  /** An active share link of the site; answers its id and key. */
  shareLink(site: SiteRecord): Promise<{ id: string; key: string }>;
  /** A site token of the site (through the share link, when given). */
  siteToken(site: Pick<SiteRecord, '_id' | 'organizationId'>, shareLinkId?: string): Promise<string>;
  /** The ids of the site's site spaces, in their order. */
  siteSpaceIds(siteId: string): Promise<string[]>;
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
        await db.collection(COLLECTIONS.siteSpaces).insertMany(
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
    async siteSpaceIds(siteId) {
      const rows = await db
        .collection<{ _id: string; order: number }>(COLLECTIONS.siteSpaces)
        .find({ siteId }, { sort: { sectionId: 1, order: 1 }, projection: { _id: 1 } })
        .toArray();
      return rows.map((r) => r._id);
    },
  };
}

export interface CreatedSite {
  id: string;
  organizationId: string;
  /** its published URL */
  url: string;
  siteSpaceIds: string[];
}

/** A site of these spaces made and published through the API by `admin` (site spaces at the root, named after their spaces). */
export async function createPublishedSite(admin: Client, sites: SitesDatabase, organizationId: string, spaceIds: string[], visibility = 'share-link'): Promise<CreatedSite> {
  const created = await admin.post(`/v1/orgs/${organizationId}/sites`, { title: 'Docs', visibility, spaces: spaceIds });
  if (created.status !== 201) throw new Error(`create site: ${created.status} ${JSON.stringify(created.body)}`);
  const published = await admin.post(`/v1/orgs/${organizationId}/sites/${created.body.id}/publish`);
  if (published.status !== 200) throw new Error(`publish site: ${published.status} ${JSON.stringify(published.body)}`);
  return { id: created.body.id, organizationId, url: published.body.urls.published, siteSpaceIds: await sites.siteSpaceIds(created.body.id) };
}

/** An active share link of the site made through the API by `admin`; answers its id and key. */
export async function createShareLink(admin: Client, organizationId: string, siteId: string): Promise<{ id: string; key: string }> {
  const res = await admin.post(`/v1/orgs/${organizationId}/sites/${siteId}/share-links`, { name: 'Preview' });
  if (res.status !== 201) throw new Error(`create share link: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id, key: decodeURIComponent(res.body.urls.published.split('/~share/')[1]) };
}
