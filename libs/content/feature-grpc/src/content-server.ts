import { defineService } from '@bindery/platform/service-runtime';
import { BLOB_INDEXES, CONTENT_INDEXES, OUTBOX_COLLECTIONS, RETIRED_CONTENT_INDEXES } from '@bindery/content/data-access';
import { connectIdentity, identityAddressSetting } from '@bindery/identity/client';
import { changeRequestCountHandlers } from './change-request-counts';
import { IdentitySource, identityAccessSource, orgAccessIndexes } from '@bindery/identity/projection';
import { Db, dropIndexesNamed } from '@bindery/platform/mongo';
import { logger } from '@bindery/platform/telemetry';
import type { ContentDeps } from './content-deps';
import { composeContent } from './content-composition';
import { contentFiles, FILE_SETTINGS, fileDownloadsGrpc } from './files';
import { fileUploadsGrpc } from './files/uploads.service';
import { contentGrpc } from './grpc-handlers';
import { identityHandlers } from './identity-consumers';
import { PURGE_RUN, runPurge } from './purge';
import { runStagedSweep, STAGED_SWEEP_RUN } from './files/staged-sweep';
import { ImportInput, IMPORT_SETTINGS, limitsOf, runWebsiteImport, WEBSITE_IMPORT_RUN } from './imports';
import { outboundPolicyFromEnv } from '@bindery/platform/outbound-http';
import { EMBED_SETTINGS, embedLimitsOf, embedsWith } from './embeds';

/**
 * Content: collections and spaces, who may see them (from its projection of identity's events) and
 * their deletion lifecycle. `clock` is injectable for tests of the restore window; `accessSource`
 * (where the access projection and the teams directory confirm what they cannot prove) is identity unless a test says otherwise.
 */
export function contentServiceWith(clock: () => number = Date.now, accessSource?: (db: Db) => IdentitySource) {
  let identity: ReturnType<typeof connectIdentity> | undefined;
  let database: Db | undefined;
  return defineService({
    name: 'content',
    settings: {
      /** how often the purge of spaces deleted more than 7 days ago runs (a scheduled run, one replica per occurrence) */
      CONTENT_PURGE_EVERY_MS: { kind: 'int', default: 600_000, min: 100, max: 86400000 },
      /** the web app's address (as the gateway's): links to it are `in-app` */
      BINDERY_APP_URL: { kind: 'url', optional: true },
      /** identity's gRPC address: the access projection confirms with it what it cannot prove */
      ...identityAddressSetting,
      /** deadline of a call to identity (an access check inside a request) */
      CONTENT_IDENTITY_DEADLINE_MS: { kind: 'int', default: 5000, min: 100, max: 60000 },
      /** how long content remembers an access decision's reads (a user's standing, an organization's collections, their grants); 0: not at all */
      CONTENT_ACCESS_CACHE_MS: { kind: 'int', default: 250, min: 0, max: 1000 },
      ...FILE_SETTINGS,
      ...IMPORT_SETTINGS,
      ...EMBED_SETTINGS,
    },
    indexes: { ...CONTENT_INDEXES, ...BLOB_INDEXES, ...orgAccessIndexes() },
    outboxCollections: OUTBOX_COLLECTIONS,
    deps: ({ db, eventsRecorded, config, runs }): ContentDeps => {
      database = db;
      const { allowPrivate } = outboundPolicyFromEnv({ BINDERY_OUTBOUND_ALLOW_PRIVATE: config.BINDERY_OUTBOUND_ALLOW_PRIVATE });
      const source = accessSource?.(db) ?? identityAccessSource((identity = connectIdentity(config.IDENTITY_GRPC_URL, config.CONTENT_IDENTITY_DEADLINE_MS)), 'content');
      return {
        ...composeContent(
          db,
          eventsRecorded,
          contentFiles(db, config),
          config.BINDERY_APP_URL ? [new URL(config.BINDERY_APP_URL).origin] : [],
          source,
          clock,
          config.CONTENT_ACCESS_CACHE_MS,
        ),
        imports: { runs, limits: limitsOf(config), allowPrivate },
        embeds: embedsWith(embedLimitsOf(config), allowPrivate),
      };
    },
    // the current indexes exist by now; those of earlier versions go
    init: async () => {
      const dropped = await dropIndexesNamed(database!, RETIRED_CONTENT_INDEXES);
      if (dropped.length) logger.info('content: dropped indexes of an earlier version', { indexes: dropped });
    },
    dispose: async () => {
      identity?.close();
    },
    grpc: (deps) => [...contentGrpc(deps), fileDownloadsGrpc(deps.files), fileUploadsGrpc(deps)],
    consumers: (deps) => ({
      'content.identity-access': { from: ['identity'], handlers: deps.access.handlers, liveness: deps.access.liveness, applied: deps.access.forget },
      'content.identity-cleanup': { from: ['identity'], handlers: identityHandlers(deps), applied: () => deps.views.grants.invalidateAll() },
      'content.change-request-counts': { from: ['change-requests'], handlers: changeRequestCountHandlers(deps) },
    }),
    runs: (deps, config) => ({
      handlers: {
        [PURGE_RUN]: async () => runPurge(deps),
        [STAGED_SWEEP_RUN]: async () => runStagedSweep(deps.files),
        [WEBSITE_IMPORT_RUN]: async (input, ctx) => ({ ...(await runWebsiteImport(deps, deps.imports!, input as unknown as ImportInput, ctx)) }),
      },
      schedules: [
        { name: PURGE_RUN, kind: PURGE_RUN, everyMs: config.CONTENT_PURGE_EVERY_MS },
        { name: STAGED_SWEEP_RUN, kind: STAGED_SWEEP_RUN, everyMs: config.CONTENT_PURGE_EVERY_MS },
      ],
    }),
  });
}

export const contentService = contentServiceWith();
