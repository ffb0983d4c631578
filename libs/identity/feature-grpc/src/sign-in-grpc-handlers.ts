import { GrpcRegistration, grpcService } from '@bindery/platform/grpc';
import { identitySignInV1 as pb } from '@bindery/shared/contracts';
import { IdentityDeps } from './identity-deps';
import { completeSamlLogin, samlMetadata, SignInSettings, startSamlLogin } from './saml/saml-sign-in.service';
import { authenticateSession, revokeSession } from './sessions/sessions.service';

/** SignInService: SAML sign-in and browser sessions; every method is public (no caller yet). */
export function signInHandlers(deps: IdentityDeps, settings: SignInSettings): GrpcRegistration {
  return grpcService(
    pb.SignInServiceService,
    {
      async getSamlMetadata(req) {
        return { xml: await samlMetadata(deps, settings, req.samlProviderId) };
      },
      async startSamlLogin(req) {
        return { redirectUrl: await startSamlLogin(deps, settings, req.samlProviderId, req.returnTo) };
      },
      async completeSamlLogin(req) {
        const r = await completeSamlLogin(deps, settings, { providerId: req.samlProviderId, samlResponse: req.samlResponse, relayState: req.relayState });
        return { sessionSecret: r.sessionSecret, expiresAt: r.expiresAt.toISOString(), userId: r.userId, organizationId: r.organizationId, returnTo: r.returnTo };
      },
      async authenticateSession(req) {
        return authenticateSession(deps, req.secret, settings.now());
      },
      async revokeSession(req) {
        return { revoked: await revokeSession(deps, req.secret, settings.now()) };
      },
    },
    { public: ['getSamlMetadata', 'startSamlLogin', 'completeSamlLogin', 'authenticateSession', 'revokeSession'] },
  );
}
