import { flushTelemetry, logger } from '@bindery/platform/telemetry';
import { startReader } from '@bindery/reader/site';

const STOP_BUDGET_MS = 1900;

// In-flight requests finish; idle keep-alive connections close at once, every connection at STOP_BUDGET_MS - 400.
startReader(process.env).then(
  (reader) => {
    const stop = () => {
      setTimeout(() => process.exit(0), STOP_BUDGET_MS).unref();
      reader
        .stop(STOP_BUDGET_MS - 400)
        .then(() => flushTelemetry())
        .finally(() => process.exit(0));
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  },
  (err) => {
    logger.error('reader failed to start', { error: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  },
);
