import { defineGatewayModule, RouteRegistry, RouteSpec } from '@bindery/gateway/http';
import type { ContentClients } from '@bindery/content/client';
import type { IdentityClients } from '@bindery/identity/client';
import { collectionRoutes } from './collection-routes';
import { connectContentWithDownloads, downloadRoutes } from './download-route';
import { contentReadRoutes } from './content-read-routes';
import { importRoutes } from './import-routes';
import { importRunRoutes } from './import-run-routes';
import { memberSpaceRoutes } from './member-space-routes';
import { permissionRoutes } from './permission-routes';
import { Urls } from './representations';
import { spaceRoutes } from './space-routes';

/**
 * Every route served by content. Content authorizes each call; identity's clients give the people
 * behind its grants (users, teams) and decide who may see an organization's member.
 */
export function contentRoutes(content: ContentClients, identity: IdentityClients, urls: Urls): RouteSpec[] {
  return [
    ...spaceRoutes(content.spaces, urls),
    ...collectionRoutes(content.collections, urls),
    ...permissionRoutes(content, identity, urls),
    ...memberSpaceRoutes(content.spaces, identity.members, urls),
    ...contentReadRoutes(content.revisions, identity, urls),
    ...importRoutes(content.revisions),
    ...importRunRoutes(content.revisions, urls),
  ];
}

export function registerContentRoutes(registry: RouteRegistry, content: ContentClients, identity: IdentityClients, urls: Urls): RouteRegistry {
  return registry.add(...contentRoutes(content, identity, urls));
}

/** Content's part of the gateway; its routes also use identity's clients. */
export const contentGateway = defineGatewayModule({
  service: 'content',
  connect: connectContentWithDownloads,
  routes: (clients, context) => contentRoutes(clients, context.clientsOf<IdentityClients>('identity'), context),
  rawRoutes: (clients) => downloadRoutes(clients.downloads),
});
