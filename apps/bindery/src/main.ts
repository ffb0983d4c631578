import { logger } from '@bindery/platform/telemetry';
import { STOP_BUDGET, stopOnSignals } from '@bindery/platform/service-runtime';
import { HOSTED_SERVICES } from './hosted-services';
import { HTTP_STOP_MS, startMonolith } from './monolith';

/**
 * A stop ends within this of SIGTERM: the HTTP apps' budget, then the services' (stopped side by side,
 * each within STOP_BUDGET), then the telemetry export; past it the process exits anyway.
 */
const STOP_DEADLINE_MS = HTTP_STOP_MS + STOP_BUDGET.totalMs;

startMonolith(HOSTED_SERVICES, process.env).then(
  (monolith) => stopOnSignals(() => monolith.stop(), { deadlineMs: STOP_DEADLINE_MS, flushMs: STOP_BUDGET.flushMs }),
  (err) => {
    logger.error('bindery failed to start', { error: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  },
);
