import { grpcService, GrpcRegistration, HandlersOf } from '@bindery/platform/grpc';
import { sitesPublishedV1 as pb } from '@bindery/shared/contracts';
import type { SitesDeps } from './sites-deps';
import { authenticateSiteToken } from './site-tokens';
import { resolvePublishedUrl, visitorAuth } from './published-urls.service';
import { createRedirect, deleteRedirect, getRedirectBySource, listRedirects, updateRedirect } from './redirects.service';
import { searchSite } from './site-search.service';
import { openPublishedUrl } from './published-view.service';
import { pageInfo, redirectMessage } from './site-messages';

type Published = typeof pb.PublishedSitesServiceService;

/**
 * PublishedSitesService. AuthenticateSiteToken is public: the token in the request is the whole
 * credential (the gateway asks before it knows any caller). ResolvePublishedUrl is public too, as
 * GitBook's resolver is for its renderer: the URL and the visitor decide what it answers, never the
 * caller. OpenPublishedUrl takes any caller but a site token's (the reader's). A site token's caller may
 * look up its site's redirects and search it.
 */
export function publishedSitesGrpc(deps: SitesDeps): GrpcRegistration {
  const handlers: HandlersOf<Published, 'authenticateSiteToken' | 'resolvePublishedUrl'> = {
    resolvePublishedUrl: (req) => resolvePublishedUrl(deps, req),
    openPublishedUrl: (req) => openPublishedUrl(deps, req),
    authenticateSiteToken: (req) => authenticateSiteToken(deps, req.token),
    listRedirects: async (req, { caller }) => {
      const page = await listRedirects(deps, caller, req.organizationId, req.siteId, req);
      return { items: page.items.map(redirectMessage), page: pageInfo(page) };
    },
    createRedirect: async (req, { caller }) => redirectMessage(await createRedirect(deps, caller, req.organizationId, req.siteId, req)),
    updateRedirect: async (req, { caller }) => redirectMessage(await updateRedirect(deps, caller, req, req)),
    deleteRedirect: async (req, { caller }) => ({ deleted: await deleteRedirect(deps, caller, req) }),
    getRedirectBySource: async (req, { caller }) => {
      const found = await getRedirectBySource(deps, caller, req.organizationId, req.siteId, req.source, req.shareKey);
      return { redirect: redirectMessage(found.redirect), target: found.target };
    },
    searchSite: (req, { caller }) => searchSite(deps, caller, req),
    getVisitorAuth: (req, { caller }) => visitorAuth(deps, caller, req, false),
    regenerateVisitorAuth: (req, { caller }) => visitorAuth(deps, caller, req, true),
  };
  return grpcService(pb.PublishedSitesServiceService, handlers, { public: ['authenticateSiteToken', 'resolvePublishedUrl'], siteReadable: ['getRedirectBySource', 'searchSite'] });
}
