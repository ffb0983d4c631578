import { flushTelemetry, logger } from '@bindery/platform/telemetry';
import { startGateway } from '@bindery/gateway/server';

const STOP_BUDGET_MS = 1900;

// In-flight requests finish; a keep-alive connection is closed as soon as it is idle, and every
// connection at STOP_BUDGET_MS - 400, so the process exits within STOP_BUDGET_MS of SIGTERM.
startGateway(process.env).then(
  (gateway) => {
    const stop = () => {
      setTimeout(() => process.exit(0), STOP_BUDGET_MS).unref();
      gateway
        .stop(STOP_BUDGET_MS - 400)
        .then(() => flushTelemetry())
        .finally(() => process.exit(0));
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  },
  (err) => {
    logger.error('gateway failed to start', { error: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  },
);
