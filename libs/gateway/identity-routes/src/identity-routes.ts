import { RouteRegistry } from '@bindery/gateway/http';
import type { IdentityClient } from '@bindery/identity/client';
import { organizationRoutes } from './organization-routes';
import { Urls } from './representations';
import { userRoutes } from './user-routes';

/** Every route served by identity, for the gateway to mount. */
export function registerIdentityRoutes(registry: RouteRegistry, identity: IdentityClient, urls: Urls): RouteRegistry {
  return registry.add(...userRoutes(identity, urls), ...organizationRoutes(identity, urls));
}

export type { Urls };
