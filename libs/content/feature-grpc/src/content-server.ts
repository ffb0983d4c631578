import { defineService } from '@bindery/platform/service-runtime';
import { CONTENT_INDEXES, OUTBOX_COLLECTIONS } from '@bindery/content/data-access';
import { orgAccessIndexes } from '@bindery/identity/projection';
import { contentDeps, ContentDeps } from './content-deps';
import { contentGrpc } from './grpc-handlers';
import { identityHandlers } from './identity-consumers';
import { runPurge } from './purge';

/**
 * Content: collections and spaces, who may see them (from its projection of identity's events) and
 * their deletion lifecycle. `clock` is injectable for tests of the restore window.
 */
export function contentServiceWith(clock: () => number = Date.now) {
  return defineService({
    name: 'content',
    settings: {
      /** how often the purge of spaces deleted more than 7 days ago runs */
      CONTENT_PURGE_EVERY_MS: { kind: 'int', default: 60000, min: 100, max: 86400000 },
    },
    indexes: { ...CONTENT_INDEXES, ...orgAccessIndexes() },
    outboxCollections: OUTBOX_COLLECTIONS,
    deps: ({ db, eventsRecorded }): ContentDeps => contentDeps(db, eventsRecorded, clock),
    grpc: (deps) => contentGrpc(deps),
    consumers: (deps) => ({
      'content.identity-access': { from: ['identity'], handlers: deps.access.handlers },
      'content.identity-cleanup': { from: ['identity'], handlers: identityHandlers(deps) },
    }),
    jobs: (deps, config) => [{ name: 'purge', everyMs: config.CONTENT_PURGE_EVERY_MS, run: async () => void (await runPurge(deps)) }],
  });
}

export const contentService = contentServiceWith();
