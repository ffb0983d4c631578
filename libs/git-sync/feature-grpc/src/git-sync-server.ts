import { IdentityEvents } from '@bindery/identity/client';
import { GitSyncEvents } from '@bindery/git-sync/client';
import { NotesRepository, OUTBOX_COLLECTIONS, GIT_SYNC_INDEXES } from '@bindery/git-sync/data-access';
import { describeCaller, noteOfNewUser } from '@bindery/git-sync/domain';
import { eventHandlers, EventHandlers, on } from '@bindery/platform/events';
import { grpcService } from '@bindery/platform/grpc';
import { Db, sessionOf } from '@bindery/platform/mongo';
import { RunStore } from '@bindery/platform/runs';
import { defineService } from '@bindery/platform/service-runtime';
import { gitSyncV1 as pb } from '@bindery/shared/contracts';
import { gitSyncRuns } from './git-sync-runs';

export interface GitSyncDeps {
  db: Db;
  notes: NotesRepository;
  runs: RunStore;
}

/** What git-sync does with identity's events: each write passes the consumer's session (applied once). */
export function identityHandlers(deps: GitSyncDeps): EventHandlers {
  return eventHandlers(
    on(IdentityEvents.userCreated, async (d, _e, ctx) => {
      const note = noteOfNewUser(d.userId, d.email, new Date().toISOString());
      const recorded = GitSyncEvents.noteRecorded.create('git-sync', note._id, { noteId: note._id, subject: note.subject, text: note.text });
      await deps.notes.insert(note, [recorded], sessionOf(ctx));
    }),
  );
}

/** GitSync: its settings, database, gRPC services, event consumers and runs. */
export const gitSyncService = defineService({
  name: 'git-sync',
  settings: {},
  indexes: GIT_SYNC_INDEXES,
  outboxCollections: OUTBOX_COLLECTIONS,
  deps: ({ db, eventsRecorded, runs }): GitSyncDeps => ({ db, notes: new NotesRepository(db, eventsRecorded), runs }),
  grpc: () => [
    grpcService(pb.GitSyncServiceService, {
      async ping(_req, ctx) {
        return describeCaller('git-sync', ctx.caller.userId);
      },
    }),
  ],
  consumers: (deps) => ({ 'git-sync.identity': { from: ['identity'], handlers: identityHandlers(deps) } }),
  runs: (deps) => gitSyncRuns(deps),
});
