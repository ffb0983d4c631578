import { type Caller, siteCaller } from '@bindery/platform/grpc';
import type { SitesClients } from '@bindery/sites/client';

/**
 * Turns a site token (bearer tokens beginning `bsite_`) into its caller: sites checks it and answers
 * its scope, the spaces the site publishes now. The call carries no caller: the token is the credential.
 */
export function siteTokenAuthenticator(clients: Pick<SitesClients, 'published'>): (token: string) => Promise<Caller> {
  return async (token) => {
    const scope = await clients.published.authenticateSiteToken({ token });
    return siteCaller({ organizationId: scope.organizationId, siteId: scope.siteId, spaceIds: scope.spaceIds, tokenId: scope.tokenId });
  };
}
