import { ContentEvents as E } from '@bindery/content/client';
import type { GrantKey } from '@bindery/content/data-access';
import { SOURCE } from './content-deps';

/** content.grant.set (with the role) or content.grant.removed (without). */
export function grantEvent(organizationId: string, key: { targetKind: string; targetId: string; principalKind: string; principalId: string }, role: string | undefined) {
  const data = { organizationId, targetKind: key.targetKind, targetId: key.targetId, principalKind: key.principalKind, principalId: key.principalId, role };
  return (role ? E.grantSet : E.grantRemoved).create(SOURCE, key.targetId, data, organizationId);
}

/** The identifying fields of a grant (target and principal). */
export const keyOf = (g: GrantKey): GrantKey => ({ targetKind: g.targetKind, targetId: g.targetId, principalKind: g.principalKind, principalId: g.principalId });
