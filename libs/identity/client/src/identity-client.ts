import { createPromiseClient, PromiseClient } from '@bindery/platform/grpc';
import { HealthCheckResponse_ServingStatus, HealthClient, HealthServer, identityV1 } from '@bindery/shared/contracts';

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

/** Every client of identity's services, created together (the gateway holds one of these). */
export function createIdentityClients(address: string, defaultDeadlineMs: number) {
  return {
    identity: createIdentityClient(address, defaultDeadlineMs),
  };
}

export type IdentityClients = ReturnType<typeof createIdentityClients>;
