import { defineGatewayModule, RouteSpec } from '@bindery/gateway/http';
import type { Urls } from '@bindery/gateway/identity-routes';
import { connectChangeRequests, ChangeRequestsClients } from '@bindery/change-requests/client';
import type { ContentClients } from '@bindery/content/client';
import type { IdentityClients } from '@bindery/identity/client';
import { changeRequestContentRoutes } from './change-request-content-routes';
import { changeRequestImportRoutes } from './change-request-import-routes';
import { changeRequestRoutes } from './change-request-routes';
import { commentRoutes } from './comment-routes';
import { reviewRoutes } from './review-routes';
import { reviewerRoutes } from './reviewer-routes';

/** Every route served by change-requests; people come from identity, the heads' content from content. */
export function changeRequestsRoutes(clients: ChangeRequestsClients, content: ContentClients, identity: IdentityClients, urls: Urls): RouteSpec[] {
  return [
    ...changeRequestRoutes(clients.changeRequests, identity, urls),
    ...changeRequestContentRoutes(clients.changeRequests, content.revisions, identity, urls),
    ...changeRequestImportRoutes(clients.changeRequests),
    ...commentRoutes(clients.comments, identity, urls),
    ...reviewRoutes(clients.changeRequests, identity, urls),
    ...reviewerRoutes(clients.reviewers, identity, urls),
  ];
}

export const changeRequestsGateway = defineGatewayModule({
  service: 'change-requests',
  connect: connectChangeRequests,
  routes: (clients, context) => changeRequestsRoutes(clients, context.clientsOf<ContentClients>('content'), context.clientsOf<IdentityClients>('identity'), context),
});
