import { ClientsOf, clientSet } from '@bindery/platform/grpc';
import { identityLinkInvitesV1, identityMembersV1, identitySamlV1, identitySignInV1, identityTeamsV1, identityV1 } from '@bindery/shared/contracts';

const IDENTITY_SERVICES = {
  identity: identityV1.IdentityServiceService,
  members: identityMembersV1.MembersServiceService,
  saml: identitySamlV1.SamlServiceService,
  linkInvites: identityLinkInvitesV1.LinkInvitesServiceService,
  teams: identityTeamsV1.TeamsServiceService,
  signIn: identitySignInV1.SignInServiceService,
};

/** Connects typed clients to every gRPC service identity serves (deadline and signed caller on each call). */
export const connectIdentity = clientSet(IDENTITY_SERVICES);

export type IdentityClients = ClientsOf<typeof IDENTITY_SERVICES>;
export type IdentityClient = IdentityClients['identity'];
export type SamlClient = IdentityClients['saml'];
export type LinkInvitesClient = IdentityClients['linkInvites'];
export type TeamsClient = IdentityClients['teams'];
export type SignInClient = IdentityClients['signIn'];
