import { envPrefix, grpcMessageSettings, loadConfig, Schema } from '@bindery/platform/config';
import { flushTelemetry, logger } from '@bindery/platform/telemetry';
import type { EventsAdminClient } from '@bindery/platform/grpc';
import { connectEventsAdmin, grpcHealth, setMessageLimits } from '@bindery/platform/grpc';
import { answerClientErrors, BearerAuthentication, createGatewayApp, GatewayContext, TokenCache } from '@bindery/gateway/http';
import { SERVICE_MODULES } from './service-modules';
import { routeTable } from './route-table';

const STOP_BUDGET_MS = 1900;

function main() {
  const addresses: Schema = Object.fromEntries(
    SERVICE_MODULES.map(({ module, defaultAddress }) => [`${envPrefix(module.service)}_GRPC_URL`, { kind: 'string', default: defaultAddress }]),
  );
  const config = loadConfig({
    PORT: { kind: 'int', default: 8080, min: 0, max: 65535 },
    HTTP_BIND_ADDRESS: { kind: 'string', optional: true },
    BINDERY_PUBLIC_URL: { kind: 'url', optional: true },
    BINDERY_APP_URL: { kind: 'url', optional: true },
    AUTH_CACHE_TTL_MS: { kind: 'int', default: 5000, min: 0, max: 60000 },
    // short: an unpublished site or a deactivated share link ends its tokens within about a second
    SITE_TOKEN_CACHE_MS: { kind: 'int', default: 500, min: 0, max: 1000 },
    REQUEST_BUDGET_MS: { kind: 'int', default: 10000, min: 100, max: 120000 },
    BODY_LIMIT: { kind: 'string', default: '1mb' },
    BINDERY_INTERNAL_SECRET: { kind: 'string', optional: true, secret: true, min: 32 },
    ...grpcMessageSettings,
    ...addresses,
  });
  setMessageLimits({ maxSendBytes: config.GRPC_MAX_SEND_MESSAGE_BYTES, maxReceiveBytes: config.GRPC_MAX_RECEIVE_MESSAGE_BYTES });
  if (!config.BINDERY_INTERNAL_SECRET) logger.warn('BINDERY_INTERNAL_SECRET is not set: callers are passed to services unsigned');
  const publicUrl = (config.BINDERY_PUBLIC_URL ?? `http://127.0.0.1:${config.PORT}`).replace(/\/$/, '');

  // Every module is connected first, so that any module's routes may use another's clients.
  const readiness: Record<string, () => Promise<boolean>> = {};
  const connected = new Map<string, { close(): void }>();
  // Every service also serves the platform's EventsAdmin (its dead letters) on the same address.
  const eventsAdmin: Record<string, EventsAdminClient> = {};
  for (const { module } of SERVICE_MODULES) {
    const address = (config as Record<string, unknown>)[`${envPrefix(module.service)}_GRPC_URL`] as string;
    connected.set(module.service, module.connect(address, config.REQUEST_BUDGET_MS));
    eventsAdmin[module.service] = connectEventsAdmin(address, config.REQUEST_BUDGET_MS);
    readiness[module.service] = grpcHealth(address);
  }
  const connections = [...connected.values(), ...Object.values(eventsAdmin)];
  const context: GatewayContext = {
    publicUrl,
    appUrl: (config.BINDERY_APP_URL ?? publicUrl).replace(/\/$/, ''),
    clientsOf<C>(service: string): C {
      const clients = connected.get(service);
      if (!clients) throw new Error(`no gateway module connects to a service named ${service}`);
      return clients as C;
    },
  };

  const { registry, rawRoutes, resolveToken, resolveSiteToken } = routeTable((service) => connected.get(service)!, eventsAdmin, context);
  if (!resolveToken) throw new Error('no service module authenticates API tokens');
  const tokens = new BearerAuthentication(new TokenCache(resolveToken, config.AUTH_CACHE_TTL_MS), resolveSiteToken && new TokenCache(resolveSiteToken, config.SITE_TOKEN_CACHE_MS));

  const app = createGatewayApp({
    registry,
    authenticate: (header) => tokens.authenticate(header),
    readiness,
    publicUrl,
    requestBudgetMs: config.REQUEST_BUDGET_MS,
    bodyLimit: config.BODY_LIMIT,
    rawRoutes,
  });
  const onListening = () => logger.info('gateway listening', { port: config.PORT, address: config.HTTP_BIND_ADDRESS ?? 'all interfaces', publicUrl });
  const server = config.HTTP_BIND_ADDRESS ? app.listen(config.PORT, config.HTTP_BIND_ADDRESS, onListening) : app.listen(config.PORT, onListening);
  server.keepAliveTimeout = 65000;
  answerClientErrors(server);

  // In-flight requests finish; a keep-alive connection is closed as soon as it is idle, and every
  // connection at STOP_BUDGET_MS - 400, so the process exits within STOP_BUDGET_MS of SIGTERM.
  const stop = () => {
    server.close(() => {
      for (const c of connections) c.close();
      flushTelemetry().finally(() => process.exit(0));
    });
    server.closeIdleConnections();
    setInterval(() => server.closeIdleConnections(), 50).unref();
    setTimeout(() => server.closeAllConnections(), STOP_BUDGET_MS - 400).unref();
    setTimeout(() => process.exit(0), STOP_BUDGET_MS).unref();
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
