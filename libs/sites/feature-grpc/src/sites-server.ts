import { connectContent, contentAddressSetting, ContentClients } from '@bindery/content/client';
import { connectIdentity, identityAddressSetting } from '@bindery/identity/client';
import { createOrgAccessProjection, IdentitySource, identityAccessSource, orgAccessIndexes } from '@bindery/identity/projection';
import { Db, transactionsRelayingEvents } from '@bindery/platform/mongo';
import { defineService } from '@bindery/platform/service-runtime';
import { logger } from '@bindery/platform/telemetry';
import { connectSearch, SearchClients, searchAddressSetting } from '@bindery/search/client';
import {
  dropRetiredIndexes,
  GitRedirectsRepository,
  OrganizationAddressesRepository,
  OUTBOX_COLLECTIONS,
  RedirectsRepository,
  SectionGroupsRepository,
  SectionsRepository,
  ShareLinksRepository,
  SiteCustomizationsRepository,
  SiteDependentsRepository,
  SitesRepository,
  SiteSpacesRepository,
  SITES_INDEXES,
  SiteTokenStore,
  VisitorKeysRepository,
} from '@bindery/sites/data-access';
import { contentHandlers } from './content-events';
import { gitSyncHandlers } from './git-sync-events';
import { organizationHandlers } from './org-addresses';
import { SitesDeps } from './sites-deps';
import { publishedSitesGrpc } from './published-grpc';
import { sitesGrpc } from './sites-grpc';
import { structureGrpc } from './structure-grpc';

export interface SitesServiceOptions {
  clock?: () => number;
  /** where the access projection confirms what it cannot prove (identity unless a test says otherwise) */
  accessSource?: (db: Db) => IdentitySource;
  /** content's clients (a test may give a stand-in) */
  connectContent?: (address: string, deadlineMs: number) => ContentClients & { close(): void };
  /** search's clients (a test may give a stand-in) */
  connectSearch?: (address: string, deadlineMs: number) => SearchClients & { close(): void };
}

/**
 * Sites: published docs sites, their structure, share links and the published view a reader uses.
 * Organization roles come from its projection of identity's events; spaces are content's, read as
 * the caller and kept consistent by content's events.
 */
export function sitesServiceWith(options: SitesServiceOptions = {}) {
  let identity: ReturnType<typeof connectIdentity> | undefined;
  let content: (ContentClients & { close(): void }) | undefined;
  let search: (SearchClients & { close(): void }) | undefined;
  const clock = options.clock ?? Date.now;
  return defineService({
    name: 'sites',
    settings: {
      ...identityAddressSetting,
      ...contentAddressSetting,
      ...searchAddressSetting,
      /** deadline of a call to identity, content or search made while serving a call */
      SITES_CALL_DEADLINE_MS: { kind: 'int', default: 5000, min: 100, max: 60000 },
      /** how long sites remembers an access decision's reads; 0: not at all */
      SITES_ACCESS_CACHE_MS: { kind: 'int', default: 250, min: 0, max: 1000 },
      /** queue a site's structure changes in this process, so they do not abort each other's transactions (off: the compare-and-set alone, as across replicas) */
      SITES_QUEUE_STRUCTURE_CHANGES: { kind: 'bool', default: true },
      /** where the reader serves published sites (each site at `<url>/<basename>` unless it has its own hostname) */
      BINDERY_READER_URL: { kind: 'url', default: 'http://127.0.0.1:8090' },
      /** a domain below which each organization with a hostname has its own host: `<hostname>.<domain>/<basename>` (docs/sites.md) */
      BINDERY_READER_DOMAIN: { kind: 'string', optional: true },
    },
    indexes: { ...SITES_INDEXES, ...orgAccessIndexes() },
    outboxCollections: OUTBOX_COLLECTIONS,
    deps: ({ db, eventsRecorded, config, runs }): SitesDeps => {
      const source = options.accessSource?.(db) ?? identityAccessSource((identity = connectIdentity(config.IDENTITY_GRPC_URL, config.SITES_CALL_DEADLINE_MS)), 'sites');
      content = (options.connectContent ?? connectContent)(config.CONTENT_GRPC_URL, config.SITES_CALL_DEADLINE_MS);
      search = (options.connectSearch ?? connectSearch)(config.SEARCH_GRPC_URL, config.SITES_CALL_DEADLINE_MS);
      return {
        db,
        sites: new SitesRepository(db, eventsRecorded),
        tokens: new SiteTokenStore(db),
        shareLinks: new ShareLinksRepository(db),
        customizations: new SiteCustomizationsRepository(db),
        dependents: new SiteDependentsRepository(db),
        sections: new SectionsRepository(db),
        sectionGroups: new SectionGroupsRepository(db),
        siteSpaces: new SiteSpacesRepository(db),
        access: createOrgAccessProjection(db, { source, cacheMs: config.SITES_ACCESS_CACHE_MS }),
        content,
        search,
        redirects: new RedirectsRepository(db),
        gitRedirects: new GitRedirectsRepository(db),
        visitorKeys: new VisitorKeysRepository(db),
        runs,
        clock,
        // structure changes of one site serialize on the site's document: a burst of edits waits its turn rather than failing
        transaction: transactionsRelayingEvents(db, eventsRecorded, { maxAttempts: 30 }),
        readerUrl: config.BINDERY_READER_URL.replace(/\/$/, ''),
        readerDomain: config.BINDERY_READER_DOMAIN?.toLowerCase() || undefined,
        organizations: new OrganizationAddressesRepository(db),
        queueStructureChanges: config.SITES_QUEUE_STRUCTURE_CHANGES,
      };
    },
    // the per-organization basename index exists by now; the instance-wide one of earlier versions goes
    init: async (deps) => {
      const dropped = await dropRetiredIndexes(deps.db);
      if (dropped.length) logger.info('sites: dropped indexes of an earlier version', { indexes: dropped });
    },
    dispose: async () => {
      identity?.close();
      content?.close();
      search?.close();
    },
    grpc: (deps) => [...sitesGrpc(deps), structureGrpc(deps), publishedSitesGrpc(deps)],
    consumers: (deps) => ({
      'sites.identity-access': { from: ['identity'], handlers: deps.access.handlers, liveness: deps.access.liveness, applied: deps.access.forget },
      'sites.identity-orgs': { from: ['identity'], handlers: organizationHandlers(deps) },
      'sites.content': { from: ['content'], handlers: contentHandlers(deps) },
      'sites.git-sync': { from: ['git-sync'], handlers: gitSyncHandlers(deps) },
    }),
  });
}

export const sitesService = sitesServiceWith();
