import { ClientSession, Db, Document } from 'mongodb';
import type { SectionRecord, SiteSpaceRecord } from '@bindery/sites/domain';
import { COLLECTIONS } from './indexes';

/** Documents whose events the relay has not sent yet (they are never hard-deleted). */
const PENDING = { outboxCount: { $gt: 0 } };
const HIDE_OUTBOX = { outbox: 0, outboxCount: 0 };

/**
 * What hangs off a site, seen from the site's own lifecycle: the site spaces a new site starts with,
 * the defaults an update of the site points at, which sites show a space, and everything removed
 * with a deleted site (its sections, section groups, site spaces, redirects, share links and visitor key).
 */
export class SiteDependentsRepository {
  constructor(private readonly db: Db) {}

  private col<T extends Document>(name: string) {
    return this.db.collection<T>(name);
  }

  /** A new site's site spaces, in its transaction (paths unique per the site-space path index). */
  async insertSiteSpaces(records: SiteSpaceRecord[], session: ClientSession): Promise<void> {
    if (records.length) await this.col<SiteSpaceRecord>(COLLECTIONS.siteSpaces).insertMany(records, { session });
  }

  /** The ids of the organization's sites with a site space of the space. */
  async siteIdsShowingSpace(organizationId: string, spaceId: string): Promise<string[]> {
    const ids = await this.col<SiteSpaceRecord>(COLLECTIONS.siteSpaces).distinct('siteId', { organizationId, spaceId });
    return ids as string[];
  }

  siteSpace(siteId: string, siteSpaceId: string, session?: ClientSession): Promise<SiteSpaceRecord | null> {
    return this.col<SiteSpaceRecord>(COLLECTIONS.siteSpaces).findOne({ _id: siteSpaceId, siteId }, { session, projection: HIDE_OUTBOX });
  }

  section(siteId: string, sectionId: string, session?: ClientSession): Promise<SectionRecord | null> {
    return this.col<SectionRecord>(COLLECTIONS.sections).findOne({ _id: sectionId, siteId }, { session, projection: HIDE_OUTBOX });
  }

  /** Marks the site space the default of its section, in the transaction of the site's update. */
  async setSectionDefault(siteId: string, sectionId: string, siteSpaceId: string, at: string, session: ClientSession): Promise<boolean> {
    const r = await this.col<SectionRecord>(COLLECTIONS.sections).updateOne({ _id: sectionId, siteId }, { $set: { defaultSiteSpaceId: siteSpaceId, updatedAt: at } }, { session });
    return r.matchedCount === 1;
  }

  /**
   * The space each site shows by default, by site: through the default section's default site space
   * for a site with sections, the root's default site space otherwise. Sites without one are absent.
   */
  async defaultSpaces(sites: Array<{ _id: string; defaultSectionId?: string; defaultSiteSpaceId?: string }>): Promise<Map<string, string>> {
    const sectionIds = sites.map((s) => s.defaultSectionId).filter((id): id is string => !!id);
    const sections = sectionIds.length
      ? await this.col<SectionRecord>(COLLECTIONS.sections)
          .find({ _id: { $in: sectionIds } }, { projection: { defaultSiteSpaceId: 1 } })
          .toArray()
      : [];
    const sectionDefault = new Map(sections.map((s) => [s._id, s.defaultSiteSpaceId]));
    const siteSpaceOf = new Map<string, string>();
    for (const s of sites) {
      const ss = s.defaultSectionId ? sectionDefault.get(s.defaultSectionId) : s.defaultSiteSpaceId;
      if (ss) siteSpaceOf.set(s._id, ss);
    }
    const ids = [...new Set(siteSpaceOf.values())];
    const siteSpaces = ids.length
      ? await this.col<SiteSpaceRecord>(COLLECTIONS.siteSpaces)
          .find({ _id: { $in: ids } }, { projection: { spaceId: 1 } })
          .toArray()
      : [];
    const spaceOf = new Map(siteSpaces.map((ss) => [ss._id, ss.spaceId]));
    const out = new Map<string, string>();
    for (const [siteId, ss] of siteSpaceOf) {
      const spaceId = spaceOf.get(ss);
      if (spaceId) out.set(siteId, spaceId);
    }
    return out;
  }

  /**
   * Removes everything of a deleted site, in the transaction that deletes it. Documents whose events
   * are still to be relayed stay until then, marked deleted, and are never read again (every read
   * goes through their site, which is gone).
   */
  async removeAllOf(siteId: string, at: string, session: ClientSession): Promise<void> {
    for (const name of [
      COLLECTIONS.siteSpaces,
      COLLECTIONS.sections,
      COLLECTIONS.sectionGroups,
      COLLECTIONS.redirects,
      COLLECTIONS.shareLinks,
      COLLECTIONS.visitorKeys,
      COLLECTIONS.siteCustomizations,
    ]) {
      const col = this.col(name);
      await col.deleteMany({ siteId, $nor: [PENDING] }, { session });
      await col.updateMany({ siteId, ...PENDING }, { $set: { deletedAt: at, siteDeletedAt: at } }, { session });
    }
  }
}
