import { ClientSession, Db, withTransaction } from '@bindery/platform/mongo';
import { CollectionsRepository, GrantsRepository, RevisionsRepository, SpacesRepository, TeamsDirectory, TreeLocks } from '@bindery/content/data-access';
import { createOrgAccessProjection, OrgAccessProjection } from '@bindery/identity/projection';

/** What content's use cases work with; built once at start. */
export interface ContentDeps {
  spaces: SpacesRepository;
  collections: CollectionsRepository;
  grants: GrantsRepository;
  revisions: RevisionsRepository;
  locks: TreeLocks;
  teams: TeamsDirectory;
  /** each user's standing in each organization, from identity's events */
  access: OrgAccessProjection;
  /** milliseconds since the epoch; injectable so tests can cross the restore window without waiting */
  clock: () => number;
  /** Runs `work` as one multi-document transaction, retried on transient conflicts (platform/mongo). */
  transaction<T>(work: (session: ClientSession) => Promise<T>): Promise<T>;
}

export function contentDeps(db: Db, eventsRecorded: () => void, clock: () => number = Date.now): ContentDeps {
  return {
    spaces: new SpacesRepository(db, eventsRecorded),
    collections: new CollectionsRepository(db, eventsRecorded),
    grants: new GrantsRepository(db, eventsRecorded),
    revisions: new RevisionsRepository(db),
    locks: new TreeLocks(db),
    teams: new TeamsDirectory(db),
    access: createOrgAccessProjection(db),
    clock,
    transaction: async (work) => {
      // Changes under one parent or one organization's tree run one after the other: allow a queue of them.
      const result = await withTransaction(db, work, { maxAttempts: 40 });
      // Events written inside a transaction become visible at commit: relay them now.
      eventsRecorded();
      return result;
    },
  };
}

export const SOURCE = 'bindery/content';

export const nowOf = (deps: ContentDeps) => new Date(deps.clock()).toISOString();
