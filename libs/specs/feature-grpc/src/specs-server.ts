import { IdentityEvents } from '@bindery/identity/client';
import { SpecsEvents } from '@bindery/specs/client';
import { NotesRepository, OUTBOX_COLLECTIONS, SPECS_INDEXES } from '@bindery/specs/data-access';
import { describeCaller, noteOfNewUser } from '@bindery/specs/domain';
import { eventHandlers, EventHandlers, on } from '@bindery/platform/events';
import { grpcService } from '@bindery/platform/grpc';
import { Db, sessionOf } from '@bindery/platform/mongo';
import { RunStore } from '@bindery/platform/runs';
import { defineService } from '@bindery/platform/service-runtime';
import { specsV1 as pb } from '@bindery/shared/contracts';
import { specsRuns } from './specs-runs';

export interface SpecsDeps {
  db: Db;
  notes: NotesRepository;
  runs: RunStore;
}

/** What specs does with identity's events: each write passes the consumer's session (applied once). */
export function identityHandlers(deps: SpecsDeps): EventHandlers {
  return eventHandlers(
    on(IdentityEvents.userCreated, async (d, _e, ctx) => {
      const note = noteOfNewUser(d.userId, d.email, new Date().toISOString());
      const recorded = SpecsEvents.noteRecorded.create('specs', note._id, { noteId: note._id, subject: note.subject, text: note.text });
      await deps.notes.insert(note, [recorded], sessionOf(ctx));
    }),
  );
}

/** Specs: its settings, database, gRPC services, event consumers and runs. */
export const specsService = defineService({
  name: 'specs',
  settings: {},
  indexes: SPECS_INDEXES,
  outboxCollections: OUTBOX_COLLECTIONS,
  deps: ({ db, eventsRecorded, runs }): SpecsDeps => ({ db, notes: new NotesRepository(db, eventsRecorded), runs }),
  grpc: () => [
    grpcService(pb.SpecsServiceService, {
      async ping(_req, ctx) {
        return describeCaller('specs', ctx.caller.userId);
      },
    }),
  ],
  consumers: (deps) => ({ 'specs.identity': { from: ['identity'], handlers: identityHandlers(deps) } }),
  runs: (deps) => specsRuns(deps),
});
