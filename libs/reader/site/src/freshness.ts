import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { ensureTopics, EVERY_DELIVERY, eventHandlers, EventHandlers, Kafka, on, RunningConsumer, startConsumer, topicOf } from '@bindery/platform/events';
import { ContentEvents } from '@bindery/content/client';
import { SitesEvents } from '@bindery/sites/client';
import { SpecsEvents } from '@bindery/specs/client';

/** What events drop: the caches of `CachedSource`. */
export interface Invalidatable {
  invalidateSite(siteId: string): void;
  invalidateAll(): void;
  /** an organization's spec has a new latest version or is gone (the pages showing it re-render) */
  invalidateApiSpec?(organizationId: string, slug: string): void;
}

/**
 * The events that change what a published site shows, and what each drops:
 * - a site's settings, customization, structure, share links, publication or existence (`sites.site.*`): what is
 *   known of that site;
 * - a space's current revision moving (a merge, a revert, an import: `content.revision.created`
 *   with `isCurrent`) or the space changing, going or coming back: every resolution and view,
 *   since which sites show a space is not known here.
 * Invalidation is idempotent, so no event needs to be applied once only.
 */
export function freshnessHandlers(cache: Invalidatable, invalidated?: (type: string) => void): EventHandlers {
  const site = (type: string) => async (d: { siteId: string }) => {
    cache.invalidateSite(d.siteId);
    invalidated?.(type);
  };
  const all = (type: string) => async () => {
    cache.invalidateAll();
    invalidated?.(type);
  };
  const spec = (type: string) => async (d: { organizationId: string; slug: string }) => {
    cache.invalidateApiSpec?.(d.organizationId, d.slug);
    invalidated?.(type);
  };
  return eventHandlers(
    on(SitesEvents.siteUpdated, site(SitesEvents.siteUpdated.type)),
    on(SitesEvents.sitePublished, site(SitesEvents.sitePublished.type)),
    on(SitesEvents.siteUnpublished, site(SitesEvents.siteUnpublished.type)),
    on(SitesEvents.siteDeleted, site(SitesEvents.siteDeleted.type)),
    on(SitesEvents.siteCustomizationUpdated, site(SitesEvents.siteCustomizationUpdated.type)),
    on(ContentEvents.revisionCreated, async (d) => {
      if (d.isCurrent) await all(ContentEvents.revisionCreated.type)();
    }),
    on(ContentEvents.spaceUpdated, all(ContentEvents.spaceUpdated.type)),
    on(ContentEvents.spaceDeleted, all(ContentEvents.spaceDeleted.type)),
    on(ContentEvents.spaceRestored, all(ContentEvents.spaceRestored.type)),
    on(ContentEvents.spaceTransferred, all(ContentEvents.spaceTransferred.type)),
    on(ContentEvents.spacePurged, all(ContentEvents.spacePurged.type)),
    on(SpecsEvents.specVersionCreated, spec(SpecsEvents.specVersionCreated.type)),
    on(SpecsEvents.specDeleted, spec(SpecsEvents.specDeleted.type)),
  );
}

export interface FreshnessOptions {
  kafka: Kafka;
  /** topic and group prefix (KAFKA_NAMESPACE) */
  namespace: string;
  cache: Invalidatable;
  invalidated?: (type: string) => void;
}

/**
 * Keeps one reader replica's caches fresh: a consumer group of its own (every replica must see
 * every event), starting at the end (a cache needs only what happens from now on), without an
 * apply-once store (the reader has no database; invalidation is idempotent). A handler that fails
 * is retried, then logged and skipped: the resolution TTL still bounds how stale an answer is.
 */
export async function startFreshness(options: FreshnessOptions): Promise<RunningConsumer> {
  const topics = ['sites', 'content', 'specs'].map((service) => options.namespace + topicOf(service));
  await ensureTopics(options.kafka, topics);
  const replica = `${hostname()
    .replace(/[^A-Za-z0-9-]/g, '-')
    .slice(0, 40)}-${randomBytes(4).toString('hex')}`;
  return startConsumer({
    kafka: options.kafka,
    groupId: `${options.namespace}reader.cache.${replica}`,
    topics,
    handlers: freshnessHandlers(options.cache, options.invalidated),
    processed: EVERY_DELIVERY,
    fromBeginning: false,
    retry: { attempts: 3, backoffMs: 50, maxBackoffMs: 200 },
  });
}
