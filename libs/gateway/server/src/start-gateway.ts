import { createServer } from 'node:http';
import { envPrefix, grpcMessageSettings, loadConfig, Schema } from '@bindery/platform/config';
import { logger } from '@bindery/platform/telemetry';
import type { EventsAdminClient } from '@bindery/platform/grpc';
import { connectEventsAdmin, grpcHealth, setMessageLimits } from '@bindery/platform/grpc';
import { closeHttpServer, listen, RunningHttpApp } from '@bindery/platform/service-runtime';
import { answerClientErrors, BearerAuthentication, createGatewayApp, GatewayContext, TokenCache } from '@bindery/gateway/http';
import { SERVICE_MODULES } from './service-modules';
import { routeTable } from './route-table';

/** The gateway's settings (docs/configuration.md), every service's address among them. */
export function gatewaySettings() {
  const addresses: Schema = Object.fromEntries(
    SERVICE_MODULES.map(({ module, defaultAddress }) => [`${envPrefix(module.service)}_GRPC_URL`, { kind: 'string', default: defaultAddress }]),
  );
  return {
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
  } satisfies Schema;
}

/** A gateway built (clients, routes, compiled schemas) but not yet listening. */
export interface PreparedGateway {
  /** listens on PORT; resolves once it does */
  listen(): Promise<RunningHttpApp>;
  /** closes the clients of a gateway that will not listen */
  close(): void;
}

/**
 * Starts the gateway from its settings in `env`: connects every service module's clients, serves the
 * REST API, and resolves once it listens. Used by apps/gateway.
 */
export async function startGateway(env: NodeJS.ProcessEnv = process.env): Promise<RunningHttpApp> {
  return prepareGateway(env).listen();
}

/**
 * Builds the gateway without listening: the work of a start that takes CPU (every route's schemas
 * compiled, about 0.5 s, seconds on a loaded machine). The monolith (apps/bindery) does it before its
 * services start, so it never holds up their consumers' first heartbeats.
 */
export function prepareGateway(env: NodeJS.ProcessEnv = process.env): PreparedGateway {
  const config = loadConfig(gatewaySettings(), env);
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
  const closeConnections = () => {
    for (const c of connections) c.close();
  };
  const context: GatewayContext = {
    publicUrl,
    appUrl: (config.BINDERY_APP_URL ?? publicUrl).replace(/\/$/, ''),
    clientsOf<C>(service: string): C {
      const clients = connected.get(service);
      if (!clients) throw new Error(`no gateway module connects to a service named ${service}`);
      return clients as C;
    },
  };

  const { registry, rawRoutes, resolveToken, resolveSiteToken, resolveSession } = routeTable((service) => connected.get(service)!, eventsAdmin, context);
  if (!resolveToken) {
    closeConnections();
    throw new Error('no service module authenticates API tokens');
  }
  const tokens = new BearerAuthentication(new TokenCache(resolveToken, config.AUTH_CACHE_TTL_MS), resolveSiteToken && new TokenCache(resolveSiteToken, config.SITE_TOKEN_CACHE_MS));

  const app = createGatewayApp({
    registry,
    authenticate: (header) => tokens.authenticate(header),
    // Not cached: a logout ends the session at once, on every gateway.
    ...(resolveSession ? { authenticateSession: resolveSession } : {}),
    readiness,
    publicUrl,
    requestBudgetMs: config.REQUEST_BUDGET_MS,
    bodyLimit: config.BODY_LIMIT,
    rawRoutes,
  });
  // What express's listen does, with a taken port rejecting the start instead of crashing the process.
  const server = createServer(app);
  server.keepAliveTimeout = 65000;
  answerClientErrors(server);
  return {
    close: closeConnections,
    async listen() {
      let port: number;
      try {
        port = await listen(server, config.PORT, config.HTTP_BIND_ADDRESS);
      } catch (err) {
        closeConnections();
        throw err;
      }
      logger.info('gateway listening', { port, address: config.HTTP_BIND_ADDRESS ?? 'all interfaces', publicUrl });
      return {
        port,
        async stop(budgetMs) {
          await closeHttpServer(server, budgetMs);
          closeConnections();
        },
      };
    },
  };
}
