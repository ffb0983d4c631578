import type { Caller, EventsAdminClient } from '@bindery/platform/grpc';
import { eventsAdminRoutes, GatewayContext, RawRoute, RouteRegistry } from '@bindery/gateway/http';
import { SERVICE_MODULES } from './service-modules';

/** Every route the gateway serves (each service module's, then the services' dead-letter admin) and who resolves API tokens and site tokens. */
export function routeTable(
  clientsOf: (service: string) => { close(): void },
  eventsAdmin: Record<string, EventsAdminClient>,
  context: GatewayContext,
): {
  registry: RouteRegistry;
  rawRoutes: RawRoute[];
  resolveToken?: (token: string) => Promise<Caller>;
  resolveSiteToken?: (token: string) => Promise<Caller>;
  resolveSession?: (secret: string) => Promise<Caller>;
} {
  const registry = new RouteRegistry();
  const rawRoutes: RawRoute[] = [];
  let resolveToken: ((token: string) => Promise<Caller>) | undefined;
  let resolveSiteToken: ((token: string) => Promise<Caller>) | undefined;
  let resolveSession: ((secret: string) => Promise<Caller>) | undefined;
  for (const { module } of SERVICE_MODULES) {
    const clients = clientsOf(module.service);
    registry.add(...module.routes(clients, context));
    rawRoutes.push(...(module.rawRoutes?.(clients, context) ?? []));
    if (module.authenticator) resolveToken = module.authenticator(clients);
    if (module.siteTokenAuthenticator) resolveSiteToken = module.siteTokenAuthenticator(clients);
    if (module.sessionAuthenticator) resolveSession = module.sessionAuthenticator(clients);
  }
  registry.add(...eventsAdminRoutes(eventsAdmin));
  return { registry, rawRoutes, resolveToken, resolveSiteToken, resolveSession };
}
