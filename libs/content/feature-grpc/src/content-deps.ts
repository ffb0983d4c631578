import type { ClientSession, IdempotencyKeys } from '@bindery/platform/mongo';
import type { TrailingCache } from '@bindery/platform/grpc';
import type { CollectionRecord, GrantRecord } from '@bindery/content/domain';
import type {
  ChangeRequestItems,
  CollectionsRepository,
  ContentObjectsRepository,
  GrantsRepository,
  RevisionsRepository,
  SpacesRepository,
  TeamsDirectory,
  TreeLocks,
} from '@bindery/content/data-access';
import type { OrgAccessProjection } from '@bindery/identity/projection';
import type { ContentFiles, FileDownloads } from './files/file-ports';
import type { WebsiteImports } from './imports/import-ports';
import type { Embeds } from './embeds/embeds';

/** What content's use cases work with (built once at start by composeContent in content-composition.ts). */
export interface ContentDeps {
  spaces: SpacesRepository;
  collections: CollectionsRepository;
  grants: GrantsRepository;
  revisions: RevisionsRepository;
  /** the content-addressed records revisions are made of */
  objects: ContentObjectsRepository;
  files: ContentFiles & FileDownloads;
  /** origins of the instance's app: links to them are `in-app` */
  appOrigins: string[];
  locks: TreeLocks;
  /** the organizations' teams, from identity's events (a team they lack is confirmed with identity) */
  teams: TeamsDirectory;
  /** the change requests and live comments of each space, from change-requests' events (a space's counts come from it) */
  changeRequestItems: ChangeRequestItems;
  /** each user's standing in each organization, from identity's events (confirmed with identity where they cannot prove it) */
  access: OrgAccessProjection;
  /**
   * What every access decision reads, remembered for a bounded time (see TrailingCache): an
   * organization's collections and a principal's grants. Forgotten whenever this replica's writes
   * commit; another replica's show within the cache's age.
   */
  views: { collections: TrailingCache<CollectionRecord[]>; grants: TrailingCache<GrantRecord[]> };
  /** the callers' Idempotency-Keys of creates (a retry answers the first answer) */
  idempotencyKeys: IdempotencyKeys;
  /** milliseconds since the epoch; injectable so tests can cross the restore window without waiting */
  clock: () => number;
  /** website imports: their job records, limits and outbound policy */
  imports?: WebsiteImports;
  /** embeds of external URLs: their limits, outbound policy and cache */
  embeds: Embeds;
  /** Runs `work` as one multi-document transaction, retried on transient conflicts (platform/mongo). */
  transaction<T>(work: (session: ClientSession) => Promise<T>): Promise<T>;
}

export const SOURCE = 'bindery/content';

export const nowOf = (deps: ContentDeps) => new Date(deps.clock()).toISOString();
