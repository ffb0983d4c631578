import type { Db } from '@bindery/platform/mongo';
import { createOrgAccessProjection } from './org-access-projection';
import type { IdentitySource } from './org-access-source';

/**
 * For service tests of another service, where identity does not run: the projection's own records
 * (fed by the test as identity's events would) answer for identity, and the service's own record of
 * teams is all there is (no team is confirmed beyond it).
 */
export function identityStandIn(db: Db): IdentitySource {
  const records = createOrgAccessProjection(db, { source: { accessOf: async () => undefined } });
  return { accessOf: (organizationId, userId) => records.projectedAccessOf(organizationId, userId), liveTeams: async () => [] };
}
