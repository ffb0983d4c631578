import { connectContent, contentAddressSetting, ContentClients } from '@bindery/content/client';
import { defineService } from '@bindery/platform/service-runtime';
import { CHANGE_REQUEST_INDEXES, OUTBOX_COLLECTIONS, RETIRED_CHANGE_REQUEST_INDEXES } from '@bindery/change-requests/data-access';
import { Db, dropIndexesNamed } from '@bindery/platform/mongo';
import { logger } from '@bindery/platform/telemetry';
import { changeRequestsGrpc } from './change-requests-grpc';
import { commentsGrpc } from './comments/comments-grpc';
import { reviewersGrpc } from './reviewers-grpc';
import { changeRequestsDeps, ChangeRequestsDeps } from './deps';
import { contentHandlers, identityHandlers } from './event-consumers';
import { ANNOUNCE_STATES_KEY, ANNOUNCE_STATES_RUN, announceStates } from './announce-states.run';

/**
 * Change requests: proposals of edits to a space with their discussion and reviews. Revisions stay
 * in content, reached over gRPC as the caller (content also decides what the caller may see).
 */
export const changeRequestsServiceWith = (connect: (address: string, deadlineMs: number) => ContentClients, clock: () => number = Date.now) => {
  let database: Db | undefined;
  return defineService({
    name: 'change-requests',
    settings: {
      ...contentAddressSetting,
      /** deadline of a call to content (merges of large spaces take the longest); a call made while serving one is also cut to that call's deadline */
      CHANGE_REQUESTS_CONTENT_DEADLINE_MS: { kind: 'int', default: 30000, min: 100, max: 600000 },
    },
    indexes: CHANGE_REQUEST_INDEXES,
    outboxCollections: OUTBOX_COLLECTIONS,
    deps: ({ db, eventsRecorded, config, runs }): ChangeRequestsDeps => {
      database = db;
      return { ...changeRequestsDeps(db, eventsRecorded, connect(config.CONTENT_GRPC_URL, config.CHANGE_REQUESTS_CONTENT_DEADLINE_MS), clock), runs };
    },
    // the current indexes exist by now; those of earlier versions go. Once per database: what consumers'
    // copies (content's counts) did not hear before they listened.
    init: async (deps) => {
      const dropped = await dropIndexesNamed(database!, RETIRED_CHANGE_REQUEST_INDEXES);
      if (dropped.length) logger.info('change-requests: dropped indexes of an earlier version', { indexes: dropped });
      await deps.runs!.enqueue({ kind: ANNOUNCE_STATES_RUN, idempotencyKey: ANNOUNCE_STATES_KEY });
    },
    dispose: async (deps) => (deps.content as unknown as { close(): void }).close(),
    grpc: (deps) => [...changeRequestsGrpc(deps), ...commentsGrpc(deps), reviewersGrpc(deps)],
    consumers: (deps) => ({
      'change-requests.content-cleanup': { from: ['content'], handlers: contentHandlers(deps) },
      'change-requests.identity-cleanup': { from: ['identity'], handlers: identityHandlers(deps) },
    }),
    runs: (deps) => ({ handlers: { [ANNOUNCE_STATES_RUN]: async (_input, ctx) => announceStates(deps, ctx) } }),
  });
};

/** content reached over gRPC (the service tier of the tests gives a stand-in and a clock). */
export const changeRequestsService = changeRequestsServiceWith(connectContent);
