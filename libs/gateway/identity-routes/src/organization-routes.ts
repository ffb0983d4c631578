import { invalid } from '@bindery/platform/errors';
import { ID_PARAM, LIST_QUERY, officialResponse, RouteSpec, toList } from '@bindery/gateway/http';
import type { IdentityClient } from '@bindery/identity/client';
import { identityV1 as pb } from '@bindery/shared/contracts';
import { CREATE_ORGANIZATION, INVITE_USERS, UPDATE_ORGANIZATION } from './identity-schemas';
import { organizationJson, Urls } from './representations';

const ORG_PARAM = { organizationId: ID_PARAM };

type Nullable<T> = T | null;
const nullable = (v: Nullable<string> | undefined) => (v === undefined ? undefined : { value: v ?? undefined });

function updateRequest(organizationId: string, b: Record<string, unknown>): pb.UpdateOrganizationRequest {
  const dc = b.defaultContent as Nullable<{ type: string; site: string }> | undefined;
  return {
    organizationId,
    title: b.title as string | undefined,
    emailDomains: b.emailDomains === undefined ? undefined : { values: b.emailDomains as string[] },
    hostname: b.hostname as string | undefined,
    defaultRole: nullable(b.defaultRole as Nullable<string> | undefined),
    defaultContent: dc === undefined ? undefined : { value: dc ?? undefined },
    logo: nullable(b.logo as Nullable<string> | undefined),
    sso: b.sso as boolean | undefined,
    ai: b.ai as boolean | undefined,
    inviteLinks: b.inviteLinks as boolean | undefined,
  };
}

/** /v1/orgs…, /v1/email-domains/…/orgs. */
export function organizationRoutes(identity: IdentityClient, urls: Urls): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/v1/orgs',
      operationId: 'listOrganizationsForAuthenticatedUser',
      summary: "List the authenticated user's organizations",
      tags: ['organizations'],
      query: LIST_QUERY,
      success: { status: 200, description: 'A page of organizations', schema: officialResponse('listOrganizationsForAuthenticatedUser') },
      async handler({ caller, deadline, query }) {
        const r = await identity.listOrganizations({ page: { page: (query.page as string) ?? '', limit: (query.limit as number) ?? 0 } }, { caller, deadline });
        return {
          body: toList(
            r.items.map((o) => organizationJson(o, urls)),
            r.page,
          ),
        };
      },
    },
    {
      method: 'post',
      path: '/v1/orgs',
      operationId: 'createOrganization',
      summary: 'Create an organization; the caller becomes its admin',
      tags: ['organizations'],
      // No sites on this instance yet: the schema says so (withDefaultSite=true is a 400, openapiUrl is only used with it).
      query: {
        withDefaultSite: { type: 'boolean', const: false, description: 'false: a default site (true) is not available on this instance yet, create the site separately' },
        openapiUrl: { type: 'string', maxLength: 2048 },
      },
      body: CREATE_ORGANIZATION,
      // Only @gitbook/api 0.202.0 has createOrganization; its `$ref: Organization` is served with the 0.130.0
      // Organization, like every other route's (the answer is the same organizationJson, valid against both).
      success: { status: 201, description: 'The organization', schema: officialResponse('createOrganization') },
      async handler({ caller, deadline, query, body }) {
        if (query.withDefaultSite === true) throw invalid('withDefaultSite is not available on this instance yet; create the site separately.');
        const b = body as { title: string; emailDomains?: string[] };
        const org = await identity.createOrganization({ title: b.title, emailDomains: b.emailDomains ?? [] }, { caller, deadline });
        const json = organizationJson(org, urls);
        return { status: 201, body: json, headers: { Location: json.urls.location } };
      },
    },
    {
      method: 'get',
      path: '/v1/orgs/:organizationId',
      operationId: 'getOrganizationById',
      summary: 'Get an organization',
      tags: ['organizations'],
      params: ORG_PARAM,
      success: { status: 200, description: 'The organization', schema: officialResponse('getOrganizationById') },
      async handler({ caller, deadline, params }) {
        return { body: organizationJson(await identity.getOrganization({ organizationId: params.organizationId }, { caller, deadline }), urls) };
      },
    },
    {
      method: 'patch',
      path: '/v1/orgs/:organizationId',
      operationId: 'updateOrganizationById',
      summary: 'Update an organization (admins)',
      tags: ['organizations'],
      params: ORG_PARAM,
      body: UPDATE_ORGANIZATION,
      success: { status: 200, description: 'The updated organization', schema: officialResponse('updateOrganizationById') },
      async handler({ caller, deadline, params, body }) {
        const org = await identity.updateOrganization(updateRequest(params.organizationId, body as Record<string, unknown>), { caller, deadline });
        return { body: organizationJson(org, urls) };
      },
    },
    {
      method: 'get',
      path: '/v1/email-domains/:emailDomain/orgs',
      operationId: 'getOrganizationsForEmailDomain',
      summary: 'Organizations using an e-mail domain that the caller may know',
      tags: ['organizations'],
      params: { emailDomain: { type: 'string', minLength: 1, maxLength: 253 } },
      // Official schema with one erratum: 0.130.0 requires "organizaitons" (a typo), served as "organizations".
      success: { status: 200, description: 'The organizations', schema: officialResponse('getOrganizationsForEmailDomain') },
      async handler({ caller, deadline, params }) {
        const r = await identity.listOrganizationsByEmailDomain({ emailDomain: params.emailDomain }, { caller, deadline });
        return { body: { organizations: r.organizations.map((o) => organizationJson(o, urls)) } };
      },
    },
    {
      method: 'post',
      path: '/v1/orgs/:organizationId/ping',
      operationId: 'pingOrganization',
      summary: "Record the caller's activity in the organization",
      tags: ['organizations'],
      params: ORG_PARAM,
      // The official operation at this path is updateOrganizationMemberLastSeenAt; Bindery answers `{}` (no gitbookVisitorClaims).
      success: { status: 200, description: 'Recorded', schema: officialResponse('updateOrganizationMemberLastSeenAt') },
      async handler({ caller, deadline, params }) {
        await identity.pingOrganization({ organizationId: params.organizationId }, { caller, deadline });
        return { body: {} };
      },
    },
    {
      method: 'post',
      path: '/v1/orgs/:organizationId/invites',
      operationId: 'inviteUsersToOrganization',
      summary: 'Invite users by e-mail (admins); existing users join at once',
      tags: ['organization-invites'],
      params: ORG_PARAM,
      body: INVITE_USERS,
      success: { status: 200, description: 'Who was added and how many were invited', schema: officialResponse('inviteUsersToOrganization') },
      async handler({ caller, deadline, params, body }) {
        const b = body as { emails: Array<string | { email: string; role: string | null }>; role?: string | null; sso?: boolean };
        const r = await identity.inviteMembers(
          {
            organizationId: params.organizationId,
            invitees: b.emails.map((e) => (typeof e === 'string' ? { email: e } : { email: e.email, role: { value: e.role ?? undefined } })),
            role: nullable(b.role),
            sso: b.sso ?? false,
          },
          { caller, deadline },
        );
        return { body: { users: r.userIds, invited: r.invited } };
      },
    },
  ];
}
