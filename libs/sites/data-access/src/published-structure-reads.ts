import { Db } from 'mongodb';
import type { SectionRecord, ShareLinkRecord, SiteSpaceRecord } from '@bindery/sites/domain';
import { COLLECTIONS } from './indexes';

export type SectionAddress = Pick<SectionRecord, '_id' | 'path' | 'defaultSiteSpaceId' | 'order'>;
export type SiteSpaceAddress = Pick<SiteSpaceRecord, '_id' | 'sectionId' | 'spaceId' | 'path' | 'order'>;

/**
 * What redirects and a site's search read of a site's structure and share links, which their own
 * repositories write: the shown site spaces, the sections' paths and defaults, an active share
 * link by its key. Reads only, per site, on the indexes those collections have.
 */
export class PublishedStructureReads {
  constructor(private readonly db: Db) {}

  /** The site's shown site spaces (not those of deleted spaces), by section and order. */
  siteSpaces(organizationId: string, siteId: string): Promise<SiteSpaceAddress[]> {
    return this.db
      .collection<SiteSpaceRecord & { deletedAt?: string }>(COLLECTIONS.siteSpaces)
      .find(
        { siteId, organizationId, spaceDeletedAt: { $exists: false }, deletedAt: { $exists: false } },
        { projection: { _id: 1, sectionId: 1, spaceId: 1, path: 1, order: 1 }, sort: { sectionId: 1, order: 1, _id: 1 } },
      )
      .toArray();
  }

  /** The site's sections with their paths and default site spaces, in order. */
  sections(organizationId: string, siteId: string): Promise<SectionAddress[]> {
    return this.db
      .collection<SectionRecord & { deletedAt?: string }>(COLLECTIONS.sections)
      .find({ siteId, organizationId, deletedAt: { $exists: false } }, { projection: { _id: 1, path: 1, defaultSiteSpaceId: 1, order: 1 }, sort: { order: 1, _id: 1 } })
      .toArray();
  }

  /** The active share link of the site with this key, or null (the key is looked up, never logged). */
  activeShareLinkByKey(siteId: string, key: string): Promise<Pick<ShareLinkRecord, '_id'> | null> {
    return this.db
      .collection<ShareLinkRecord & { deletedAt?: string }>(COLLECTIONS.shareLinks)
      .findOne({ key, siteId, active: true, deletedAt: { $exists: false } }, { projection: { _id: 1 } });
  }
}
