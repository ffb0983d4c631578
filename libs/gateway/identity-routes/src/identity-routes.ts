import { defineGatewayModule, RouteRegistry, RouteSpec } from '@bindery/gateway/http';
import { connectIdentity, IdentityClients } from '@bindery/identity/client';
import { linkInviteRoutes } from './link-invite-routes';
import { memberRoutes } from './member-routes';
import { organizationRoutes } from './organization-routes';
import { Urls } from './representations';
import { samlRoutes } from './saml-routes';
import { signInRoutes } from './sign-in-routes';
import { teamRoutes } from './team-routes';
import { userRoutes } from './user-routes';

/** Every route served by identity. */
export function identityRoutes(clients: IdentityClients, urls: Urls): RouteSpec[] {
  return [
    ...userRoutes(clients.identity, urls),
    ...organizationRoutes(clients.identity, urls),
    ...memberRoutes(clients, urls),
    ...samlRoutes(clients, urls),
    ...linkInviteRoutes(clients),
    ...teamRoutes(clients.teams, urls),
  ];
}

export function registerIdentityRoutes(registry: RouteRegistry, clients: IdentityClients, urls: Urls): RouteRegistry {
  return registry.add(...identityRoutes(clients, urls));
}

/** Identity's part of the gateway; identity also authenticates every API token and browser session. */
export const identityGateway = defineGatewayModule({
  service: 'identity',
  connect: connectIdentity,
  routes: identityRoutes,
  authenticator: (clients) => (token) => clients.identity.authenticate({ token }),
  // Browser sign-in through SAML providers, and the sessions it opens (sign-in-routes.ts).
  rawRoutes: (clients, context) => signInRoutes(clients.signIn, context),
  sessionAuthenticator: (clients) => (secret) => clients.signIn.authenticateSession({ secret }),
});

export type { Urls };
