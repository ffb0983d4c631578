import { grpcService, GrpcRegistration, HandlersOf } from '@bindery/platform/grpc';
import { sitesPublishedV1 as pb } from '@bindery/shared/contracts';
import type { SitesDeps } from './sites-deps';
import { authenticateSiteToken } from './site-tokens';
import { resolvePublishedUrl, visitorAuth } from './published-urls.service';
import { createRedirect, deleteRedirect, getRedirectBySource, listRedirects, updateRedirect } from './redirects.service';
import { searchSite } from './site-search.service';
import { openPublishedUrl } from './published-view.service';

type Published = typeof pb.PublishedSitesServiceService;

/**
 * PublishedSitesService. AuthenticateSiteToken is public: the token in the request is the whole
 * credential (the gateway asks before it knows any caller). ResolvePublishedUrl and
 * OpenPublishedUrl take any caller but a site token's: the URL and the visitor decide what it answers. A site token's caller may
 * look up its site's redirects and search it.
 */
export function publishedSitesGrpc(deps: SitesDeps): GrpcRegistration {
  const handlers: HandlersOf<Published, 'authenticateSiteToken'> = {
    resolvePublishedUrl: (req) => resolvePublishedUrl(deps, req),
    openPublishedUrl: (req) => openPublishedUrl(deps, req),
    authenticateSiteToken: (req) => authenticateSiteToken(deps, req.token),
    listRedirects: (req, { caller }) => listRedirects(deps, caller, req),
    createRedirect: (req, { caller }) => createRedirect(deps, caller, req),
    updateRedirect: (req, { caller }) => updateRedirect(deps, caller, req),
    deleteRedirect: (req, { caller }) => deleteRedirect(deps, caller, req),
    getRedirectBySource: (req, { caller }) => getRedirectBySource(deps, caller, req),
    searchSite: (req, { caller }) => searchSite(deps, caller, req),
    getVisitorAuth: (req, { caller }) => visitorAuth(deps, caller, req, false),
    regenerateVisitorAuth: (req, { caller }) => visitorAuth(deps, caller, req, true),
  };
  return grpcService(pb.PublishedSitesServiceService, handlers, { public: ['authenticateSiteToken'], siteReadable: ['getRedirectBySource', 'searchSite'] });
}
