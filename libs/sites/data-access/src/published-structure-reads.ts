import { Db } from 'mongodb';
import type { SectionRecord, SiteSpaceRecord } from '@bindery/sites/domain';
import { COLLECTIONS } from './indexes';

export type SectionAddress = Pick<SectionRecord, '_id' | 'path' | 'defaultSiteSpaceId' | 'order'>;
export type SiteSpaceAddress = Pick<SiteSpaceRecord, '_id' | 'sectionId' | 'spaceId' | 'path' | 'order'>;

/**
 * What redirects and a site's search read of a site's structure, which the structure's own
 * repositories write: the shown site spaces, the sections' paths and defaults. Reads only, per
 * site, on the indexes those collections have.
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
}
