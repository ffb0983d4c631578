import type { ContentClients } from '@bindery/content/client';
import type { OrgAccessProjection } from '@bindery/identity/projection';
import { Db, Transaction } from '@bindery/platform/mongo';
import type { RunStore } from '@bindery/platform/runs';
import type { SearchClients } from '@bindery/search/client';
import type {
  GitRedirectsRepository,
  OrganizationAddressesRepository,
  RedirectsRepository,
  SectionGroupsRepository,
  SectionsRepository,
  ShareLinksRepository,
  SiteCustomizationsRepository,
  SiteDependentsRepository,
  SitesRepository,
  SiteSpacesRepository,
  SiteTokenStore,
  VisitorKeysRepository,
} from '@bindery/sites/data-access';

/** What sites' use cases work with; built once at start (sites-server.ts). */
export interface SitesDeps {
  db: Db;
  sites: SitesRepository;
  /** site tokens' signing key and the reads that decide whether a token holds (site-tokens.ts) */
  tokens: SiteTokenStore;
  shareLinks: ShareLinksRepository;
  /** sites' customizations and their site spaces' overrides */
  customizations: SiteCustomizationsRepository;
  /** a site's site spaces, sections and the rest, as the site's own lifecycle touches them */
  dependents: SiteDependentsRepository;
  /** the structure of sites: changed only through changeStructure (one transaction, compare-and-set on the site) */
  sections: SectionsRepository;
  sectionGroups: SectionGroupsRepository;
  siteSpaces: SiteSpacesRepository;
  /** the organization roles, from identity's events (decision 0004: what identity acknowledged holds at once) */
  access: OrgAccessProjection;
  /** content's services: spaces are read as the caller (content decides what they may see) */
  content: ContentClients;
  /** search's service: a site's search runs there, as the caller */
  search: SearchClients;
  redirects: RedirectsRepository;
  /** each space's Git redirects, from git-sync's imports (git-sync-events.ts); read by every site showing the space */
  gitRedirects: GitRedirectsRepository;
  /** the keys sites' visitor tokens are signed with, one per site */
  visitorKeys: VisitorKeysRepository;
  runs: RunStore;
  clock: () => number;
  /** one multi-document transaction, retried on transient conflicts; wakes the relay after the commit */
  transaction: Transaction;
  /** whether a site's structure changes queue in this process (structure-change.ts); off, each relies on the compare-and-set alone, as changes on different replicas do */
  queueStructureChanges: boolean;
  /** where the reader serves published sites: `<readerUrl>/<organization>/<basename>` unless the site has a hostname (site-urls.ts) */
  readerUrl: string;
  /** with it, an organization with a hostname has its sites at `<scheme>://<hostname>.<readerDomain>/<basename>` */
  readerDomain?: string;
  /** each organization's hostname, from identity's events (org-addresses.ts) */
  organizations: OrganizationAddressesRepository;
}

export const SOURCE = 'bindery/sites';

export const nowOf = (deps: Pick<SitesDeps, 'clock'>) => new Date(deps.clock()).toISOString();
