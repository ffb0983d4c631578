import { defineEvent } from '@bindery/platform/events';
import { identityEventsV1 as ev } from '@bindery/shared/contracts';

/**
 * Every event identity publishes (topic bindery.identity.v1), each type paired with its payload
 * message from proto/bindery/events/identity/v1 once: producers create and consumers decode through
 * these definitions.
 */
export const IdentityEvents = {
  userCreated: defineEvent('identity.user.created', ev.UserCreated),
  organizationCreated: defineEvent('identity.organization.created', ev.OrganizationCreated),
  organizationUpdated: defineEvent('identity.organization.updated', ev.OrganizationUpdated),
  memberAdded: defineEvent('identity.member.added', ev.MemberAdded),
  memberRoleChanged: defineEvent('identity.member.role_changed', ev.MemberRoleChanged),
  memberRemoved: defineEvent('identity.member.removed', ev.MemberRemoved),
  inviteCreated: defineEvent('identity.invite.created', ev.InviteCreated),
  teamCreated: defineEvent('identity.team.created', ev.TeamChanged),
  teamUpdated: defineEvent('identity.team.updated', ev.TeamChanged),
  teamDeleted: defineEvent('identity.team.deleted', ev.TeamDeleted),
  teamMemberAdded: defineEvent('identity.team_member.added', ev.TeamMemberChanged),
  teamMemberUpdated: defineEvent('identity.team_member.updated', ev.TeamMemberChanged),
  teamMemberRemoved: defineEvent('identity.team_member.removed', ev.TeamMemberRemoved),
  samlProviderCreated: defineEvent('identity.saml_provider.created', ev.SamlProviderChanged),
  samlProviderUpdated: defineEvent('identity.saml_provider.updated', ev.SamlProviderChanged),
  samlProviderDeleted: defineEvent('identity.saml_provider.deleted', ev.SamlProviderChanged),
  linkInviteCreated: defineEvent('identity.link_invite.created', ev.LinkInviteChanged),
  linkInviteUpdated: defineEvent('identity.link_invite.updated', ev.LinkInviteChanged),
  linkInviteDeleted: defineEvent('identity.link_invite.deleted', ev.LinkInviteChanged),
};
