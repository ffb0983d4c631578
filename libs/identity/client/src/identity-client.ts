import { createPromiseClient, PromiseClient } from '@bindery/platform/grpc';
import { HealthCheckResponse_ServingStatus, HealthClient, HealthServer, identityMembersV1, identityV1 } from '@bindery/shared/contracts';
import { identitySamlV1 } from '@bindery/shared/contracts';
import { identityLinkInvitesV1 } from '@bindery/shared/contracts';
import { identityTeamsV1 } from '@bindery/shared/contracts';

export type IdentityClient = PromiseClient<identityV1.IdentityServiceServer> & { close(): void };

/** The typed promise client other scopes use to call identity. */
export function createIdentityClient(address: string, defaultDeadlineMs: number): IdentityClient {
  return createPromiseClient<identityV1.IdentityServiceServer>(identityV1.IdentityServiceClient, address, defaultDeadlineMs);
}

/**
 * Identity serves several gRPC services on one address (IdentityService, and per resource family
 * MembersService, TeamsService, SamlService, LinkInvitesService as they are added). Each has its
 * client here, built the same way.
 */
export function createIdentityServiceClient<S>(ctor: Parameters<typeof createPromiseClient>[0], address: string, defaultDeadlineMs: number) {
  return createPromiseClient<S>(ctor, address, defaultDeadlineMs);
}

/** Whether identity reports itself serving (its database and broker reachable). */
export function identityHealth(address: string): () => Promise<boolean> {
  const health = createPromiseClient<HealthServer>(HealthClient, address, 2000);
  return async () => {
    try {
      const reply = await health.check({ service: '' });
      return reply.status === HealthCheckResponse_ServingStatus.SERVING;
    } catch {
      return false;
    }
  };
}

export type SamlClient = PromiseClient<identitySamlV1.SamlServiceServer> & { close(): void };

/** SAML providers and SSO sign-in choices of organizations. */
export function createSamlClient(address: string, defaultDeadlineMs: number): SamlClient {
  return createPromiseClient<identitySamlV1.SamlServiceServer>(identitySamlV1.SamlServiceClient, address, defaultDeadlineMs);
}

export type LinkInvitesClient = PromiseClient<identityLinkInvitesV1.LinkInvitesServiceServer> & { close(): void };

/** Invite links of organizations, and joining organizations. */
export function createLinkInvitesClient(address: string, defaultDeadlineMs: number): LinkInvitesClient {
  return createPromiseClient<identityLinkInvitesV1.LinkInvitesServiceServer>(identityLinkInvitesV1.LinkInvitesServiceClient, address, defaultDeadlineMs);
}

export type TeamsClient = PromiseClient<identityTeamsV1.TeamsServiceServer> & { close(): void };

/** Teams of organizations and their members. */
export function createTeamsClient(address: string, defaultDeadlineMs: number): TeamsClient {
  return createPromiseClient<identityTeamsV1.TeamsServiceServer>(identityTeamsV1.TeamsServiceClient, address, defaultDeadlineMs);
}

/** Every client of identity's services, created together (the gateway holds one of these). */
export function createIdentityClients(address: string, defaultDeadlineMs: number) {
  return {
    identity: createIdentityClient(address, defaultDeadlineMs),
    members: createPromiseClient<identityMembersV1.MembersServiceServer>(identityMembersV1.MembersServiceClient, address, defaultDeadlineMs),
    saml: createSamlClient(address, defaultDeadlineMs),
    linkInvites: createLinkInvitesClient(address, defaultDeadlineMs),
    teams: createTeamsClient(address, defaultDeadlineMs),
  };
}

export type IdentityClients = ReturnType<typeof createIdentityClients>;
