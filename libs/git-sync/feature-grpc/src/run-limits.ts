import { AsyncLocalStorage } from 'node:async_hooks';
import { PermanentRunFailure, RunContext } from '@bindery/platform/runs';

/** What one run may take: how long, and how much a fetch may bring. */
export interface RunLimits {
  /** GIT_SYNC_RUN_TIMEOUT_MS */
  runTimeoutMs: number;
  /** GIT_SYNC_MAX_REPO_BYTES: the objects reachable from the fetched ref, as stored */
  maxRepoBytes: number;
}

/** What git commands started for a run see: its limits, and a signal that stops them (deadline, cancel, stop). */
export interface RunScope {
  signal: AbortSignal;
  maxRepoBytes: number;
}

const scope = new AsyncLocalStorage<RunScope>();

/** The scope of the run the calling code works for (none outside a run). */
export const currentRunScope = (): RunScope | undefined => scope.getStore();

const mb = (bytes: number) => `${Math.round((bytes / 1048576) * 10) / 10} MB`;

/** The reason a repository over the size limit fails its run with. */
export function tooLargeReason(bytes: number, limit: number, whole: boolean): string {
  return (
    `The repository is too large: ${whole ? '' : 'more than '}${mb(bytes)} to fetch, over the limit of ${mb(limit)} (GIT_SYNC_MAX_REPO_BYTES). ` +
    'Keep large files (assets, binaries) and long history out of the synced branch, or raise the limit.'
  );
}

/**
 * A run handler held to its limits: past `runTimeoutMs` its signal fires (git commands in flight are
 * killed, the handler stops at its next check) and the run fails for good with a reason saying so
 * (the same repository would take as long again). Git commands read the limits from the run's scope.
 */
export function withRunLimits<D extends RunLimits, I, R>(fn: (deps: D, input: I, ctx: RunContext) => Promise<R>) {
  return async (deps: D, input: I, ctx: RunContext): Promise<R> => {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error('The run took too long.')), deps.runTimeoutMs);
    const signal = AbortSignal.any([ctx.signal, deadline.signal]);
    try {
      return await scope.run({ signal, maxRepoBytes: deps.maxRepoBytes }, () => fn(deps, input, { ...ctx, signal }));
    } catch (err) {
      if (deadline.signal.aborted && !ctx.signal.aborted) {
        throw new PermanentRunFailure(
          `The run took longer than its limit of ${Math.round(deps.runTimeoutMs / 1000)} s (GIT_SYNC_RUN_TIMEOUT_MS) and was stopped: ` +
            'sync a smaller repository or project directory, or raise the limit.',
        );
      }
      throw err;
    } finally {
      clearTimeout(timer);
    }
  };
}
