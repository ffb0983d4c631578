import { RouteRegistry } from '@bindery/gateway/http';
import type { IdentityClients } from '@bindery/identity/client';
import { organizationRoutes } from './organization-routes';
import { Urls } from './representations';
import { userRoutes } from './user-routes';

/** Every route served by identity, for the gateway to mount. */
export function registerIdentityRoutes(registry: RouteRegistry, clients: IdentityClients, urls: Urls): RouteRegistry {
  return registry.add(
    ...userRoutes(clients.identity, urls),
    ...organizationRoutes(clients.identity, urls),
  );
}

export type { Urls };
