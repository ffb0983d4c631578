import { grpcService, GrpcRegistration, HandlersOf } from '@bindery/platform/grpc';
import { sitesPublishedV1 as pb } from '@bindery/shared/contracts';
import type { SitesDeps } from './sites-deps';
import { authenticateSiteToken } from './site-tokens';

type Published = typeof pb.PublishedSitesServiceService;

/**
 * PublishedSitesService. AuthenticateSiteToken is public: the token in the request is the whole
 * credential (the gateway asks before it knows any caller). `unserved` answers the RPCs not
 * implemented yet.
 */
export function publishedSitesGrpc(deps: SitesDeps, unserved: Record<string, unknown>): GrpcRegistration {
  const handlers: HandlersOf<Published, 'authenticateSiteToken'> = {
    ...(unserved as HandlersOf<Published, 'authenticateSiteToken'>),
    authenticateSiteToken: (req) => authenticateSiteToken(deps, req.token),
  };
  return grpcService(pb.PublishedSitesServiceService, handlers, { public: ['authenticateSiteToken'] });
}
