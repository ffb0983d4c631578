import { defineGatewayModule, GatewayContext, RouteSpec, servicePingRoute } from '@bindery/gateway/http';
import { connectSites, SitesClients } from '@bindery/sites/client';
import { publishedRoutes } from './published-routes';
import { publishedUrlRoutes } from './published-url-routes';
import { siteTokenAuthenticator } from './site-token-authentication';
import { adaptiveSchemaRoutes } from './adaptive-schema-routes';
import { customizationRoutes } from './customization-routes';
import { shareLinkRoutes } from './share-link-routes';
import { siteRoutes } from './site-routes';
import { structureRoutes } from './structure-routes';

/** Sites's routes. */
export function sitesRoutes(clients: SitesClients, context: GatewayContext): RouteSpec[] {
  return [
    ...structureRoutes(clients.structure, context),
    servicePingRoute('sites', (req, call) => clients.sites.ping(req, call)),
    ...siteRoutes(clients.sites, context),
    ...adaptiveSchemaRoutes(clients.sites),
    ...shareLinkRoutes(clients.shareLinks),
    ...customizationRoutes(clients.customization),
    ...publishedRoutes(clients, context),
    ...publishedUrlRoutes(clients),
  ];
}

export const sitesGateway = defineGatewayModule({ service: 'sites', connect: connectSites, routes: (clients, context) => sitesRoutes(clients, context), siteTokenAuthenticator });
