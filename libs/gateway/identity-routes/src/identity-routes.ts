import { RouteRegistry } from '@bindery/gateway/http';
import type { IdentityClients } from '@bindery/identity/client';
import { linkInviteRoutes } from './link-invite-routes';
import { memberRoutes } from './member-routes';
import { organizationRoutes } from './organization-routes';
import { Urls } from './representations';
import { samlRoutes } from './saml-routes';
import { teamRoutes } from './team-routes';
import { userRoutes } from './user-routes';

/** Every route served by identity, for the gateway to mount. */
export function registerIdentityRoutes(registry: RouteRegistry, clients: IdentityClients, urls: Urls): RouteRegistry {
  return registry.add(
    ...userRoutes(clients.identity, urls),
    ...organizationRoutes(clients.identity, urls),
    ...memberRoutes(clients, urls),
    ...samlRoutes(clients, urls),
    ...linkInviteRoutes(clients),
    ...teamRoutes(clients.teams, urls),
  );
}

export type { Urls };
