import * as os from 'node:os';
import * as path from 'node:path';
import { connectContent, connectContentDownloads, connectContentUploads, contentAddressSetting, ContentClients } from '@bindery/content/client';
import { GIT_SYNC_INDEXES, OUTBOX_COLLECTIONS, RunCredentialsRepository, SyncsRepository } from '@bindery/git-sync/data-access';
import { describeCaller } from '@bindery/git-sync/domain';
import { grpcService } from '@bindery/platform/grpc';
import { transactionsRelayingEvents } from '@bindery/platform/mongo';
import { defineService } from '@bindery/platform/service-runtime';
import { gitSyncV1 as pb } from '@bindery/shared/contracts';
import { gitSyncRuns } from './git-sync-runs';
import { getInfo, GitSyncDeps, startExport, startImport } from './git-sync.service';

export type { GitSyncDeps } from './git-sync.service';

/** Git sync: imports spaces from and exports them to Git repositories, as durable runs; content holds the revisions. */
export const gitSyncServiceWith = (connect: (address: string, deadlineMs: number) => ContentClients) =>
  defineService({
    name: 'git-sync',
    settings: {
      ...contentAddressSetting,
      /** where the per-repository caches live (empty: the system's temporary directory) */
      GIT_SYNC_CACHE_DIR: { kind: 'string', default: '' },
      /** the longest one git command of a run may take */
      GIT_SYNC_GIT_TIMEOUT_MS: { kind: 'int', default: 120000, min: 1000, max: 3600000 },
      /** the longest a whole run may take; past it the run is stopped and fails */
      GIT_SYNC_RUN_TIMEOUT_MS: { kind: 'int', default: 1800000, min: 1000, max: 86400000 },
      /** the most a fetched ref may bring (its objects as stored, history included); a larger repository fails the run */
      GIT_SYNC_MAX_REPO_BYTES: { kind: 'int', default: 536870912, min: 1024, max: 68719476736 },
      GIT_SYNC_AUTHOR_NAME: { kind: 'string', default: 'Bindery' },
      GIT_SYNC_AUTHOR_EMAIL: { kind: 'string', default: 'git-sync@bindery.invalid' },
    },
    indexes: GIT_SYNC_INDEXES,
    outboxCollections: OUTBOX_COLLECTIONS,
    deps: ({ db, eventsRecorded, runs, config }): GitSyncDeps => ({
      syncs: new SyncsRepository(db, eventsRecorded),
      credentials: new RunCredentialsRepository(db),
      runs,
      content: connect(config.CONTENT_GRPC_URL, 60000),
      downloads: connectContentDownloads(config.CONTENT_GRPC_URL, 600000),
      uploads: connectContentUploads(config.CONTENT_GRPC_URL, 600000),
      transaction: transactionsRelayingEvents(db, eventsRecorded),
      cacheDir: config.GIT_SYNC_CACHE_DIR || path.join(os.tmpdir(), 'bindery-git-sync'),
      timeoutMs: config.GIT_SYNC_GIT_TIMEOUT_MS,
      runTimeoutMs: config.GIT_SYNC_RUN_TIMEOUT_MS,
      maxRepoBytes: config.GIT_SYNC_MAX_REPO_BYTES,
      author: { name: config.GIT_SYNC_AUTHOR_NAME, email: config.GIT_SYNC_AUTHOR_EMAIL },
    }),
    dispose: async (deps) => {
      (deps.content as unknown as { close(): void }).close();
      (deps.downloads as unknown as { close?(): void } | undefined)?.close?.();
      deps.uploads.close();
    },
    grpc: (deps) => [
      grpcService(pb.GitSyncServiceService, {
        async ping(_req, ctx) {
          return describeCaller('git-sync', ctx.caller.userId);
        },
        startImport: (req, { caller }) => startImport(deps, caller, req),
        startExport: (req, { caller }) => startExport(deps, caller, req),
        getInfo: (req, { caller }) => getInfo(deps, caller, req),
      }),
    ],
    runs: (deps) => gitSyncRuns(deps),
  });

export const gitSyncService = gitSyncServiceWith(connectContent);
