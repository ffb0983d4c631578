import { defineGatewayModule, RouteRegistry, RouteSpec } from '@bindery/gateway/http';
import type { ContentClients } from '@bindery/content/client';
import type { ChangeRequestsClients } from '@bindery/change-requests/client';
import type { IdentityClients } from '@bindery/identity/client';
import { changeRequestReader, ChangeRequestOf } from '@bindery/gateway/change-request-json';
import { collectionRoutes } from './collection-routes';
import { connectContentWithDownloads, downloadRoutes } from './download-route';
import { contentReadRoutes } from './content-read-routes';
import { rendererReadRoutes } from './renderer-read-routes';
import { importRoutes } from './import-routes';
import { importRunRoutes } from './import-run-routes';
import { memberSpaceRoutes } from './member-space-routes';
import { permissionRoutes } from './permission-routes';
import { Urls } from './representations';
import { spaceRoutes } from './space-routes';

/**
 * Every route served by content. Content authorizes each call; identity's clients give the people
 * behind its grants (users, teams) and decide who may see an organization's member; a merge
 * revision's change request comes from `changeRequestOf`.
 */
export function contentRoutes(content: ContentClients, identity: IdentityClients, urls: Urls, changeRequestOf: ChangeRequestOf): RouteSpec[] {
  return [
    ...spaceRoutes(content.spaces, urls),
    ...collectionRoutes(content.collections, urls),
    ...permissionRoutes(content, identity, urls),
    ...memberSpaceRoutes(content.spaces, identity.members, urls),
    ...contentReadRoutes(content.revisions, identity, urls, changeRequestOf),
    ...rendererReadRoutes(content, urls, changeRequestOf),
    ...importRoutes(content.revisions),
    ...importRunRoutes(content.revisions, urls),
  ];
}

export function registerContentRoutes(registry: RouteRegistry, content: ContentClients, identity: IdentityClients, urls: Urls, changeRequestOf: ChangeRequestOf): RouteRegistry {
  return registry.add(...contentRoutes(content, identity, urls, changeRequestOf));
}

/** Content's part of the gateway; its routes also use identity's clients, and change-requests' for the change requests revisions were merged from. */
export const contentGateway = defineGatewayModule({
  service: 'content',
  connect: connectContentWithDownloads,
  routes: (clients, context) => {
    const identity = context.clientsOf<IdentityClients>('identity');
    const crs = context.clientsOf<ChangeRequestsClients>('change-requests');
    return contentRoutes(clients, identity, context, changeRequestReader(crs.changeRequests, identity.identity, context));
  },
  rawRoutes: (clients) => downloadRoutes(clients.downloads),
});
