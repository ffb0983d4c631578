import { ClientSession, Db } from 'mongodb';
import { Repository } from '@bindery/platform/mongo';
import { CustomizationObject, customizationIdOf, SiteCustomizationRecord } from '@bindery/sites/domain';
import { COLLECTIONS } from './indexes';

/**
 * Sites' customizations: one document for a site's settings (`_id` the site) and one for each site
 * space with overrides (`_id` `<site>:<site space>`). They carry no events: each change records
 * `sites.site_customization.updated` on the site in the same transaction.
 */
export class SiteCustomizationsRepository extends Repository<SiteCustomizationRecord> {
  constructor(db: Db) {
    super(db, COLLECTIONS.siteCustomizations);
  }

  /** The site's settings and every site space's overrides. */
  ofSite(siteId: string, session?: ClientSession): Promise<SiteCustomizationRecord[]> {
    return this.findMany({ siteId }, { session });
  }

  get(siteId: string, siteSpaceId?: string, session?: ClientSession): Promise<SiteCustomizationRecord | null> {
    return this.findOne({ _id: customizationIdOf(siteId, siteSpaceId) }, { session });
  }

  /** Writes the site's settings, or a site space's overrides, as a whole. */
  async put(record: Omit<SiteCustomizationRecord, '_id'>, session?: ClientSession): Promise<SiteCustomizationRecord> {
    const _id = customizationIdOf(record.siteId, record.siteSpaceId);
    const set: Partial<SiteCustomizationRecord> = { organizationId: record.organizationId, siteId: record.siteId, settings: record.settings, updatedAt: record.updatedAt };
    if (record.siteSpaceId) set.siteSpaceId = record.siteSpaceId;
    await this.updateRecord({ _id }, { $set: set as CustomizationObject }, [], { session, upsert: true });
    return { _id, ...record };
  }

  /** Removes a site space's overrides; false when it had none. */
  async remove(siteId: string, siteSpaceId: string, session?: ClientSession): Promise<boolean> {
    return (await this.hardDelete({ _id: customizationIdOf(siteId, siteSpaceId) }, session)) === 1;
  }
}
