import { loadConfig } from '@bindery/platform/config';
import { flushTelemetry, logger } from '@bindery/platform/telemetry';
import { answerClientErrors, createGatewayApp, RouteRegistry, TokenCache } from '@bindery/gateway/http';
import { registerIdentityRoutes } from '@bindery/gateway/identity-routes';
import { createIdentityClients, identityHealth } from '@bindery/identity/client';

function main() {
  const config = loadConfig({
    PORT: { kind: 'int', default: 8080, min: 0, max: 65535 },
    IDENTITY_GRPC_URL: { kind: 'string', default: '127.0.0.1:50051' },
    BINDERY_PUBLIC_URL: { kind: 'url', optional: true },
    BINDERY_APP_URL: { kind: 'url', optional: true },
    AUTH_CACHE_TTL_MS: { kind: 'int', default: 5000, min: 0, max: 60000 },
    REQUEST_BUDGET_MS: { kind: 'int', default: 10000, min: 100, max: 120000 },
    BODY_LIMIT: { kind: 'string', default: '1mb' },
    BINDERY_INTERNAL_SECRET: { kind: 'string', optional: true, secret: true, min: 32 },
  });
  if (!config.BINDERY_INTERNAL_SECRET) logger.warn('BINDERY_INTERNAL_SECRET is not set: callers are passed to services unsigned');
  const publicUrl = (config.BINDERY_PUBLIC_URL ?? `http://127.0.0.1:${config.PORT}`).replace(/\/$/, '');
  const clients = createIdentityClients(config.IDENTITY_GRPC_URL, config.REQUEST_BUDGET_MS);
  const tokens = new TokenCache(async (token) => clients.identity.authenticate({ token }), config.AUTH_CACHE_TTL_MS);
  const registry = registerIdentityRoutes(new RouteRegistry(), clients, { publicUrl, appUrl: (config.BINDERY_APP_URL ?? publicUrl).replace(/\/$/, '') });

  const app = createGatewayApp({
    registry,
    authenticate: (header) => tokens.authenticate(header),
    readiness: { identity: identityHealth(config.IDENTITY_GRPC_URL) },
    publicUrl,
    requestBudgetMs: config.REQUEST_BUDGET_MS,
    bodyLimit: config.BODY_LIMIT,
  });
  const server = app.listen(config.PORT, () => logger.info('gateway listening', { port: config.PORT, publicUrl }));
  server.keepAliveTimeout = 65000;
  answerClientErrors(server);

  const stop = () => {
    // In-flight requests finish; idle keep-alive connections must not hold the process open.
    server.closeIdleConnections();
    server.close(() => {
      for (const client of Object.values(clients)) client.close();
      flushTelemetry().finally(() => process.exit(0));
    });
    setTimeout(() => process.exit(0), 10000).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

try {
  main();
} catch (err) {
  logger.error('gateway failed to start', { error: err instanceof Error ? err.message : String(err) });
  process.exit(1);
}
