import type { ContentClients } from '@bindery/content/client';
import type { OrgAccessProjection } from '@bindery/identity/projection';
import { Db, Transaction } from '@bindery/platform/mongo';
import type { RunStore } from '@bindery/platform/runs';
import type { SectionGroupsRepository, SectionsRepository, SitesRepository, SiteSpacesRepository } from '@bindery/sites/data-access';

/** Whether a key opens a site: an active share link of that site with that key (keys are never logged). */
export interface ActiveShareLinks {
  activeShareLinkByKey(siteId: string, key: string): Promise<{ _id: string } | null>;
}

/** What sites' use cases work with; built once at start (sites-composition.ts). */
export interface SitesDeps {
  db: Db;
  sites: SitesRepository;
  /** the structure of sites: changed only through changeStructure (one transaction, compare-and-set on the site) */
  sections: SectionsRepository;
  sectionGroups: SectionGroupsRepository;
  siteSpaces: SiteSpacesRepository;
  /** share links, as far as reads with a share key need them */
  shareLinks: ActiveShareLinks;
  /** the organization roles, from identity's events (decision 0004: what identity acknowledged holds at once) */
  access: OrgAccessProjection;
  /** content's services: spaces are read as the caller (content decides what they may see) */
  content: ContentClients;
  runs: RunStore;
  clock: () => number;
  /** one multi-document transaction, retried on transient conflicts; wakes the relay after the commit */
  transaction: Transaction;
  /** where the reader serves published sites: `<readerUrl>/<basename>` unless the site has a hostname */
  readerUrl: string;
}

export const SOURCE = 'bindery/sites';

export const nowOf = (deps: Pick<SitesDeps, 'clock'>) => new Date(deps.clock()).toISOString();
