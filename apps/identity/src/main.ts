import { commonSettings, loadConfig } from '@bindery/platform/config';
import { stopOnSignals } from '@bindery/platform/service-runtime';
import { flushTelemetry, logger } from '@bindery/platform/telemetry';
import { startIdentityService } from '@bindery/identity/feature-grpc';

async function main() {
  const config = loadConfig({
    ...commonSettings,
    IDENTITY_GRPC_PORT: { kind: 'int', default: 50051, min: 0, max: 65535 },
    IDENTITY_DB: { kind: 'string', default: 'bindery_identity' },
    BINDERY_ADMIN_TOKEN: { kind: 'string', optional: true, secret: true, min: 16 },
    BINDERY_ADMIN_EMAIL: { kind: 'string', default: 'admin@bindery.local' },
    BINDERY_PUBLIC_URL: { kind: 'url', default: 'http://127.0.0.1:8080' },
    IDENTITY_ACCESS_CACHE_MS: { kind: 'int', default: 30000, min: 0, max: 3600000 },
  });
  const service = await startIdentityService(config);
  stopOnSignals(() => service.stop(), flushTelemetry);
}

main().catch((err) => {
  logger.error('identity failed to start', { error: err instanceof Error ? err.message : String(err) });
  process.exit(1);
});
