import type { NotesRepository } from '@bindery/git-sync/data-access';
import type { ServiceRuns } from '@bindery/platform/service-runtime';

/** The kinds of git-sync's runs. */
export const GIT_SYNC_RUNS = {
  /** counts the notes of subjects: input `{subjects}`, result `{subjects, notes}` */
  example: 'git-sync.example',
} as const;

/** GitSync's run handlers (a run is enqueued with `deps.runs.enqueue`, in the transaction of the write asking for it). */
export function gitSyncRuns(deps: { notes: NotesRepository }): ServiceRuns {
  return {
    handlers: {
      [GIT_SYNC_RUNS.example]: async (input, ctx) => {
        const subjects = (input['subjects'] as string[] | undefined) ?? [];
        let notes = 0;
        for (const [i, subject] of subjects.entries()) {
          ctx.signal.throwIfAborted();
          notes += await deps.notes.countOf(subject);
          await ctx.progress({ done: i + 1, total: subjects.length, message: 'subjects counted' });
        }
        return { subjects: subjects.length, notes };
      },
    },
  };
}
