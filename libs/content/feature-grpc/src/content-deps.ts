import { ClientSession, Db, transactionsRelayingEvents } from '@bindery/platform/mongo';
import { TrailingCache } from '@bindery/platform/grpc';
import type { CollectionRecord, GrantRecord } from '@bindery/content/domain';
import { CollectionsRepository, ContentObjectsRepository, GrantsRepository, RevisionsRepository, SpacesRepository, TeamsDirectory, TreeLocks } from '@bindery/content/data-access';
import type { FileNode, InsertFileItem } from '@bindery/content/domain';
import type { FileDownloads } from './files/file-storage';
import type { WebsiteImports } from './imports/import-website.service';
import { createOrgAccessProjection, IdentitySource, OrgAccessProjection } from '@bindery/identity/projection';

/** Where a space's file bytes go and how they are fetched back (files/). */
export interface ContentFiles {
  /** Stores one `insert_files` item (fetching a url through the outbound guard) and answers its record. */
  ingest(spaceId: string, item: InsertFileItem): Promise<FileNode>;
  /** Removes the bytes of files no revision refers to (a batch that failed after storing them). */
  discard(spaceId: string, files: FileNode[]): Promise<void>;
  /** Copies a file's bytes to another space (duplicate), answering the new blob id. */
  copy(fromSpaceId: string, file: FileNode, toSpaceId: string): Promise<string>;
  removeOfSpace(spaceId: string): Promise<void>;
  /** The signed, expiring download path of a file, relative to the gateway's public address. */
  downloadUrlOf(spaceId: string, file: FileNode): string;
}

/** What content's use cases work with; built once at start. */
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
  /** each user's standing in each organization, from identity's events (confirmed with identity where they cannot prove it) */
  access: OrgAccessProjection;
  /**
   * What every access decision reads, remembered for a bounded time (see TrailingCache): an
   * organization's collections and a principal's grants. Forgotten whenever this replica's writes
   * commit; another replica's show within the cache's age.
   */
  views: { collections: TrailingCache<CollectionRecord[]>; grants: TrailingCache<GrantRecord[]> };
  /** milliseconds since the epoch; injectable so tests can cross the restore window without waiting */
  clock: () => number;
  /** website imports: their job records, limits and outbound policy */
  imports?: WebsiteImports;
  /** Runs `work` as one multi-document transaction, retried on transient conflicts (platform/mongo). */
  transaction<T>(work: (session: ClientSession) => Promise<T>): Promise<T>;
}

export function contentDeps(
  db: Db,
  eventsRecorded: () => void,
  files: ContentFiles & FileDownloads,
  appOrigins: string[],
  accessSource: IdentitySource,
  clock: () => number = Date.now,
  cacheMs = 0,
): ContentDeps {
  const views = { collections: new TrailingCache<CollectionRecord[]>({ maxAgeMs: cacheMs }), grants: new TrailingCache<GrantRecord[]>({ maxAgeMs: cacheMs }) };
  const written = () => {
    views.collections.invalidateAll();
    views.grants.invalidateAll();
    eventsRecorded();
  };
  return {
    views,
    objects: new ContentObjectsRepository(db),
    files,
    appOrigins,
    spaces: new SpacesRepository(db, written),
    collections: new CollectionsRepository(db, written),
    grants: new GrantsRepository(db, written),
    revisions: new RevisionsRepository(db, eventsRecorded),
    locks: new TreeLocks(db),
    teams: new TeamsDirectory(db, (organizationId, teamIds) => accessSource.liveTeams(organizationId, teamIds)),
    access: createOrgAccessProjection(db, { source: accessSource, cacheMs }),
    clock,
    // Changes under one parent or one organization's tree run one after the other: allow a queue of them.
    // At commit, the events are relayed and what the transaction may have changed is forgotten.
    transaction: transactionsRelayingEvents(db, written, { maxAttempts: 40 }),
  };
}

export const SOURCE = 'bindery/content';

export const nowOf = (deps: ContentDeps) => new Date(deps.clock()).toISOString();
