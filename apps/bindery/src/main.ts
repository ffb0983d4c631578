import { flushTelemetry, logger } from '@bindery/platform/telemetry';
import { STOP_BUDGET } from '@bindery/platform/service-runtime';
import { HOSTED_SERVICES } from './hosted-services';
import { HTTP_STOP_MS, startMonolith } from './monolith';

/**
 * A stop ends within this of SIGTERM: the HTTP apps' budget, then the services' (stopped side by side,
 * each within STOP_BUDGET), then the telemetry export; past it the process exits anyway.
 */
const STOP_DEADLINE_MS = HTTP_STOP_MS + STOP_BUDGET.totalMs;

startMonolith(HOSTED_SERVICES, process.env).then(
  (monolith) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.info('stopping', { signal });
      setTimeout(() => {
        logger.error('did not stop in time; exiting', { ms: STOP_DEADLINE_MS });
        process.exit(1);
      }, STOP_DEADLINE_MS).unref();
      monolith
        .stop()
        .then(() => Promise.race([flushTelemetry(), new Promise((resolve) => setTimeout(resolve, STOP_BUDGET.flushMs).unref())]))
        .then(
          () => process.exit(0),
          (err) => {
            logger.error('error while stopping', { error: String(err) });
            process.exit(1);
          },
        );
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  },
  (err) => {
    logger.error('bindery failed to start', { error: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  },
);
