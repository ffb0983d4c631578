import { ClientSession, Db, Filter, MongoServerError, UpdateFilter } from 'mongodb';
import type { EventEnvelope } from '@bindery/platform/events';
import { isDuplicateKey, Repository } from '@bindery/platform/mongo';
import type { SiteRecord } from '@bindery/sites/domain';
import { COLLECTIONS } from './indexes';

export interface SiteQuery {
  organizationId: string;
  /** only these sites (e.g. those with a site space of a given space) */
  siteIds?: string[];
  title?: string;
  published?: boolean;
  /** any of these types (none or empty: every type) */
  types?: string[];
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `err` is a duplicate key on the unique index of `field` (e.g. another site took the basename first). */
export function duplicateKeyOn(err: unknown, field: string): boolean {
  if (!isDuplicateKey(err)) return false;
  const pattern = (err as MongoServerError).keyPattern as Record<string, unknown> | undefined;
  return pattern ? field in pattern : String((err as Error).message).includes(`${field}_unique`);
}

/** A change of a site's settings (see SitesRepository.changeSettings). */
export interface SiteSettingsChange {
  set: Partial<SiteRecord>;
  unset: (keyof SiteRecord)[];
  at: string;
  /** a default section or site space changed */
  structureMoved?: boolean;
}

/** What a change of a site's structure writes on the site (see SitesRepository.bumpStructure). */
export interface StructureSummary {
  siteSpaces: number;
  defaultSectionId?: string;
  defaultSiteSpaceId?: string;
  updatedAt: string;
}

/** Sites. Every read and write names the organization: a site of another organization is not found. */
export class SitesRepository extends Repository<SiteRecord> {
  constructor(db: Db, eventsRecorded?: () => void) {
    super(db, COLLECTIONS.sites, eventsRecorded, { softDeleteField: 'deletedAt' });
  }

  insert(record: SiteRecord, events: EventEnvelope[], session?: ClientSession) {
    return this.insertRecord(record, events, session);
  }

  get(organizationId: string, siteId: string, session?: ClientSession) {
    return this.findOne({ _id: siteId, organizationId }, { session });
  }

  /** By its basename in its organization (the resolver's lookup). */
  byBasename(organizationId: string, basename: string) {
    return this.findOne({ organizationId, basename });
  }

  /**
   * The site an address of the form before basenames were per organization (`<reader>/<basename>`)
   * names: the first created of the sites with that basename (there was one per instance then).
   */
  async firstWithBasename(basename: string): Promise<SiteRecord | null> {
    const [first] = await this.findMany({ basename }, { sort: { createdAt: 1, _id: 1 }, limit: 1 });
    return first ?? null;
  }

  /** The ids of the organization's sites (their URLs move with the organization's hostname). */
  async idsOf(organizationId: string, session?: ClientSession): Promise<string[]> {
    return (await this.findMany({ organizationId }, { projection: { _id: 1 }, session })).map((s) => s._id);
  }

  /** By the instance-wide custom hostname (the resolver's lookup of a request at a site's own host). */
  byHostname(hostname: string) {
    return this.findOne({ hostname });
  }

  /**
   * The organization's basenames that are `base` or `base-<n>` (at most 1000): a hint of where the
   * next free one may be. Only the unique index decides whether a basename is free.
   */
  async basenamesLike(organizationId: string, base: string): Promise<string[]> {
    const docs = await this.collection.find({ organizationId, basename: { $regex: `^${escapeRegex(base)}(-[0-9]+)?$` } }, { projection: { basename: 1 }, limit: 1000 }).toArray();
    return docs.map((d) => d.basename);
  }

  private filterOf(q: SiteQuery): Filter<SiteRecord> {
    const f: Filter<SiteRecord> = { organizationId: q.organizationId };
    if (q.siteIds) f._id = { $in: q.siteIds };
    if (q.title !== undefined) f.title = { $regex: escapeRegex(q.title), $options: 'i' };
    if (q.published !== undefined) f.published = q.published;
    if (q.types?.length) f.type = { $in: q.types as SiteRecord['type'][] };
    return f;
  }

  /** A page of the organization's sites, oldest first, after the cursor (createdAt, id). */
  page(q: SiteQuery, limit: number, after?: { k?: string | number; id: string }) {
    return this.keysetPage(this.filterOf(q), { key: 'createdAt', after, limit });
  }

  count(q: SiteQuery) {
    return this.countWhere(this.filterOf(q));
  }

  /**
   * Sets `published` when it is not set so already, with `events`; null when the site is gone or
   * already was so (the caller reads it back: publishing twice is one publication).
   */
  setPublished(organizationId: string, siteId: string, published: boolean, at: string, events: EventEnvelope[]) {
    return this.updateRecord({ _id: siteId, organizationId, published: !published }, { $set: { published, updatedAt: at } }, events);
  }

  /**
   * Records that something the site holds changed at `at` (redirects, share links, customization,
   * the organization's addresses), with `events`; null when the site is gone.
   */
  touch(organizationId: string, siteId: string, at: string, events: EventEnvelope[], session?: ClientSession) {
    return this.updateRecord({ _id: siteId, organizationId }, { $set: { updatedAt: at } }, events, { session });
  }

  /**
   * Writes a change of the site's settings at `change.at`: the fields of `set`, removes those of
   * `unset`; a change of its defaults also moves the structure version. Null when the site is gone.
   */
  changeSettings(organizationId: string, siteId: string, change: SiteSettingsChange, events: EventEnvelope[], session?: ClientSession) {
    const update: UpdateFilter<SiteRecord> = { $set: { ...change.set, updatedAt: change.at } };
    if (change.unset.length) update.$unset = Object.fromEntries(change.unset.map((f) => [f, ''])) as UpdateFilter<SiteRecord>['$unset'];
    if (change.structureMoved) update.$inc = { structureVersion: 1 };
    return this.updateRecord({ _id: siteId, organizationId }, update, events, { session });
  }

  /** Replaces the site's adaptive schema (its `updatedAt` is the site's); null when the site is gone. */
  setAdaptiveSchema(organizationId: string, siteId: string, adaptiveSchema: NonNullable<SiteRecord['adaptiveSchema']>, events: EventEnvelope[]) {
    return this.updateRecord({ _id: siteId, organizationId }, { $set: { adaptiveSchema, updatedAt: adaptiveSchema.updatedAt } }, events);
  }

  /**
   * Writes the site's structure summary and moves the structure version from `expected` to
   * `expected + 1`: the compare-and-set every change of the site's structure goes through, so two
   * concurrent moves cannot both apply the order they computed from the same state. A default left
   * out is removed. False when another change came first.
   */
  bumpStructure(organizationId: string, siteId: string, expected: number, summary: StructureSummary, events: EventEnvelope[], session?: ClientSession) {
    const $set: Partial<SiteRecord> = { siteSpaces: summary.siteSpaces, updatedAt: summary.updatedAt, structureVersion: expected + 1 };
    const $unset: Record<string, ''> = {};
    if (summary.defaultSectionId) $set.defaultSectionId = summary.defaultSectionId;
    else $unset.defaultSectionId = '';
    if (summary.defaultSiteSpaceId) $set.defaultSiteSpaceId = summary.defaultSiteSpaceId;
    else $unset.defaultSiteSpaceId = '';
    const update = Object.keys($unset).length ? { $set, $unset } : { $set };
    return this.updateMatched({ _id: siteId, organizationId, structureVersion: expected }, update as UpdateFilter<SiteRecord>, events, { session });
  }

  /**
   * Deletes the site: the record stays (soft-deleted, left out of every read) until its events are
   * relayed; its basename and hostname are released at once for other sites. False when it was gone.
   */
  remove(organizationId: string, siteId: string, at: string, events: EventEnvelope[], session?: ClientSession): Promise<boolean> {
    return this.updateMatched(
      { _id: siteId, organizationId },
      { $set: { deletedAt: at, basename: `~deleted~${siteId}` } as Partial<SiteRecord>, $unset: { hostname: '' } },
      events,
      { session },
    );
  }
}
