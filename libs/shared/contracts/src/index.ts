// The generated gRPC and event contracts (see tools/proto/generate.js); never edited by hand.
export * from './generated/grpc/health/v1/health';
export * from './generated/bindery/common/v1/common';
export * from './generated/bindery/common/v1/run';
export * as changeRequestsV1 from './generated/bindery/change_requests/v1/change_requests';
export * as contentV1 from './generated/bindery/content/v1/content';
export * as contentPermissionsV1 from './generated/bindery/content/v1/permissions';
export * as contentRevisionsV1 from './generated/bindery/content/v1/revisions';
export * as changeRequestsEventsV1 from './generated/bindery/events/change_requests/v1/events';
export * as contentEventsV1 from './generated/bindery/events/content/v1/events';
export * as identityEventsV1 from './generated/bindery/events/identity/v1/events';
export * as identityV1 from './generated/bindery/identity/v1/identity';
export * as identityLinkInvitesV1 from './generated/bindery/identity/v1/link_invites';
export * as identityMembersV1 from './generated/bindery/identity/v1/members';
export * as identitySamlV1 from './generated/bindery/identity/v1/saml';
export * as identityTeamsV1 from './generated/bindery/identity/v1/teams';
export * as platformEventsAdminV1 from './generated/bindery/platform/v1/events_admin';
export * as searchV1 from './generated/bindery/search/v1/search';
