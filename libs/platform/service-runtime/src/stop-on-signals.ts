import { flushTelemetry, logger } from '@bindery/platform/telemetry';

export interface SignalStop {
  /** the process exits (1, logged) this long after the signal whatever happens */
  deadlineMs: number;
  /** how long the telemetry export may take after the stop */
  flushMs: number;
}

/**
 * The one graceful stop of a process (a service, an HTTP app, the process hosting them all): on the
 * first SIGTERM or SIGINT it runs `stop`, exports the last telemetry within `flushMs` and exits 0; a
 * failed stop exits 1; past `deadlineMs` it exits 1 anyway.
 */
export function stopOnSignals(stop: () => Promise<unknown>, budget: SignalStop): void {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping', { signal });
    setTimeout(() => {
      logger.error('did not stop in time; exiting', { ms: budget.deadlineMs });
      process.exit(1);
    }, budget.deadlineMs).unref();
    stop()
      .then(() => Promise.race([flushTelemetry(), new Promise((resolve) => setTimeout(resolve, budget.flushMs).unref())]))
      .then(
        () => process.exit(0),
        (err) => {
          logger.error('error while stopping', { error: String(err) });
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', handler);
  process.once('SIGINT', handler);
}
