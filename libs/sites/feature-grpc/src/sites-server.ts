import { IdentityEvents } from '@bindery/identity/client';
import { SitesEvents } from '@bindery/sites/client';
import { NotesRepository, OUTBOX_COLLECTIONS, SITES_INDEXES } from '@bindery/sites/data-access';
import { describeCaller, noteOfNewUser } from '@bindery/sites/domain';
import { eventHandlers, EventHandlers, on } from '@bindery/platform/events';
import { grpcService } from '@bindery/platform/grpc';
import { Db, sessionOf } from '@bindery/platform/mongo';
import { RunStore } from '@bindery/platform/runs';
import { defineService } from '@bindery/platform/service-runtime';
import { sitesV1 as pb } from '@bindery/shared/contracts';
import { sitesRuns } from './sites-runs';

export interface SitesDeps {
  db: Db;
  notes: NotesRepository;
  runs: RunStore;
}

/** What sites does with identity's events: each write passes the consumer's session (applied once). */
export function identityHandlers(deps: SitesDeps): EventHandlers {
  return eventHandlers(
    on(IdentityEvents.userCreated, async (d, _e, ctx) => {
      const note = noteOfNewUser(d.userId, d.email, new Date().toISOString());
      const recorded = SitesEvents.noteRecorded.create('sites', note._id, { noteId: note._id, subject: note.subject, text: note.text });
      await deps.notes.insert(note, [recorded], sessionOf(ctx));
    }),
  );
}

/** Sites: its settings, database, gRPC services, event consumers and runs. */
export const sitesService = defineService({
  name: 'sites',
  settings: {},
  indexes: SITES_INDEXES,
  outboxCollections: OUTBOX_COLLECTIONS,
  deps: ({ db, eventsRecorded, runs }): SitesDeps => ({ db, notes: new NotesRepository(db, eventsRecorded), runs }),
  grpc: () => [
    grpcService(pb.SitesServiceService, {
      async ping(_req, ctx) {
        return describeCaller('sites', ctx.caller.userId);
      },
    }),
  ],
  consumers: (deps) => ({ 'sites.identity': { from: ['identity'], handlers: identityHandlers(deps) } }),
  runs: (deps) => sitesRuns(deps),
});
