import { identityLinkInvitesV1 as pb } from '@bindery/shared/contracts';

/**
 * An invite link, in the official InviteLinkToOrganization shape. Its id is the secret of the join
 * URL (`POST /v1/orgs/{orgId}/invites/{id}`): only the organization's admins are ever answered with it.
 */
export function linkInviteJson(i: pb.LinkInvite) {
  return { object: 'invite', id: i.id, role: i.role ?? null, redundant: i.redundant };
}
