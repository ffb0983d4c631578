import { Db, IdempotencyKeys, transactionsRelayingEvents } from '@bindery/platform/mongo';
import { budgetLeft, TrailingCache } from '@bindery/platform/grpc';
import type { CollectionRecord, GrantRecord } from '@bindery/content/domain';
import {
  ChangeRequestItems,
  CollectionsRepository,
  ContentObjectsRepository,
  GrantsRepository,
  RevisionsRepository,
  SpacesRepository,
  TeamsDirectory,
  TreeLocks,
} from '@bindery/content/data-access';
import { createOrgAccessProjection, IdentitySource } from '@bindery/identity/projection';
import type { ContentDeps } from './content-deps';
import type { ContentFiles, FileDownloads } from './files/file-ports';

/** Builds content's dependencies from its database and settings (the service's composition root); the descriptor adds imports and embeds. */
export function composeContent(
  db: Db,
  eventsRecorded: () => void,
  files: ContentFiles & FileDownloads,
  appOrigins: string[],
  accessSource: IdentitySource,
  clock: () => number = Date.now,
  cacheMs = 0,
): Omit<ContentDeps, 'embeds'> {
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
    changeRequestItems: new ChangeRequestItems(db),
    teams: new TeamsDirectory(db, (organizationId, teamIds) => accessSource.liveTeams(organizationId, teamIds)),
    access: createOrgAccessProjection(db, { source: accessSource, cacheMs }),
    idempotencyKeys: new IdempotencyKeys(db, { clock, timeLeft: budgetLeft }),
    clock,
    // Changes under one parent or one organization's tree run one after the other: allow a queue of them.
    // At commit, the events are relayed and what the transaction may have changed is forgotten.
    transaction: transactionsRelayingEvents(db, written, { maxAttempts: 40 }),
  };
}
