import { grpcService, GrpcRegistration, HandlersOf } from '@bindery/platform/grpc';
import { sitesPublishedV1 as pb } from '@bindery/shared/contracts';
import type { SitesDeps } from './sites-deps';
import { authenticateSiteToken } from './site-tokens';
import { createRedirect, deleteRedirect, getRedirectBySource, listRedirects, updateRedirect } from './redirects.service';
import { searchSite } from './site-search.service';

type Published = typeof pb.PublishedSitesServiceService;

/**
 * PublishedSitesService. AuthenticateSiteToken is public: the token in the request is the whole
 * credential (the gateway asks before it knows any caller). A site token's caller may look up its
 * site's redirects and search it. `unserved` answers the RPCs not implemented yet.
 */
export function publishedSitesGrpc(deps: SitesDeps, unserved: Record<string, unknown>): GrpcRegistration {
  const handlers: HandlersOf<Published, 'authenticateSiteToken'> = {
    ...(unserved as HandlersOf<Published, 'authenticateSiteToken'>),
    authenticateSiteToken: (req) => authenticateSiteToken(deps, req.token),
    listRedirects: (req, { caller }) => listRedirects(deps, caller, req),
    createRedirect: (req, { caller }) => createRedirect(deps, caller, req),
    updateRedirect: (req, { caller }) => updateRedirect(deps, caller, req),
    deleteRedirect: (req, { caller }) => deleteRedirect(deps, caller, req),
    getRedirectBySource: (req, { caller }) => getRedirectBySource(deps, caller, req),
    searchSite: (req, { caller }) => searchSite(deps, caller, req),
  };
  return grpcService(pb.PublishedSitesServiceService, handlers, { public: ['authenticateSiteToken'], siteReadable: ['getRedirectBySource', 'searchSite'] });
}
