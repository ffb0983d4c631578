import { internalCaller } from '@bindery/platform/grpc';
import type { IdentityClients } from '@bindery/identity/client';
import type { Db } from '@bindery/platform/mongo';
import { createOrgAccessProjection, type OrgAccess } from './org-access-projection';

/** Where a projection of identity's events confirms what it cannot prove: identity itself. */
export interface OrgAccessSource {
  accessOf(organizationId: string, userId: string): Promise<OrgAccess | undefined>;
}

/** Identity's MembersService.GetMemberAccess, called as the service itself. */
export function identityAccessSource(members: IdentityClients['members'], service: string): OrgAccessSource {
  const caller = internalCaller(service);
  return {
    async accessOf(organizationId, userId) {
      const a = await members.getMemberAccess({ organizationId, userId }, { caller });
      return a.member ? { role: a.role ?? null, teams: a.teamIds } : undefined;
    },
  };
}

/**
 * For service tests of another service, where identity does not run: the projection's own records
 * (fed by the test as identity's events would) answer for identity.
 */
export function identityStandIn(db: Db): OrgAccessSource {
  const records = createOrgAccessProjection(db, { source: { accessOf: async () => undefined } });
  return { accessOf: (organizationId, userId) => records.projectedAccessOf(organizationId, userId) };
}
