import { ID_PARAM, LIST_QUERY, object, officialResponse, ROLE_OR_GUEST, RouteSpec, toList, trimmedText } from '@bindery/gateway/http';
import type { IdentityClients } from '@bindery/identity/client';
import { identitySamlV1 as pb } from '@bindery/shared/contracts';
import { Urls } from './representations';
import { samlProviderJson, ssoProviderLoginJson } from './saml-representations';

// Provider responses are the official OrganizationSAMLProvider with one erratum (vendored, see
// docs/openapi-document.md): ssoURL, entityID and certificate are required of `active` providers
// only, since a `pending` provider is one not fully configured yet.
const ORG_PARAM = { organizationId: ID_PARAM };
const PROVIDER_PARAMS = { organizationId: ID_PARAM, samlProviderId: ID_PARAM };

// Limits from the API reference; the certificate's content and the team are checked by identity.
const SAML_FIELDS = {
  label: trimmedText(1, 30),
  entityID: { type: 'string', maxLength: 1024 },
  // One certificate in PEM form (identity also parses it as X.509: a malformed one is still a 400).
  certificate: {
    type: 'string',
    maxLength: 10000,
    pattern: '^[\\t\\n\\r ]*-----BEGIN CERTIFICATE-----\\r?\\n[A-Za-z0-9+/=\\r\\n]+-----END CERTIFICATE-----[\\t\\n\\r ]*$',
    description: 'one X.509 certificate in PEM form (-----BEGIN CERTIFICATE-----), and nothing else',
  },
  ssoURL: { type: 'string', format: 'uri', maxLength: 2048, pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' },
  defaultTeam: { type: 'string', minLength: 1, maxLength: 128 },
  defaultRole: ROLE_OR_GUEST,
};
const CREATE_SAML_PROVIDER = object(SAML_FIELDS, ['label']);
const UPDATE_SAML_PROVIDER = object(SAML_FIELDS);

interface SamlBody {
  label?: string;
  entityID?: string;
  certificate?: string;
  ssoURL?: string;
  defaultTeam?: string;
  defaultRole?: string | null;
}

function settings(b: SamlBody) {
  return {
    label: b.label,
    entityId: b.entityID,
    certificate: b.certificate,
    ssoUrl: b.ssoURL,
    defaultTeam: b.defaultTeam,
    defaultRole: b.defaultRole === undefined ? undefined : { value: b.defaultRole ?? undefined },
  };
}

/** /v1/orgs/{orgId}/saml… (providers, admins only) and /v1/orgs/{orgId}/sso (sign-in choices, members). */
export function samlRoutes(clients: IdentityClients, urls: Urls): RouteSpec[] {
  const { saml } = clients;
  const json = (p: pb.SamlProvider) => samlProviderJson(p, urls);
  return [
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/saml',
      operationId: 'listSAMLProvidersInOrganizationById',
      summary: 'List the SAML providers of an organization (admins)',
      tags: ['sso'],
      params: ORG_PARAM,
      query: LIST_QUERY,
      success: { status: 200, description: 'A page of SAML providers', schema: officialResponse('listSAMLProvidersInOrganizationById') },
      async handler({ caller, deadline, params, query }) {
        const r = await saml.listSamlProviders(
          { organizationId: params.organizationId, page: { page: (query.page as string) ?? '', limit: (query.limit as number) ?? 0 } },
          { caller, deadline },
        );
        return { body: toList(r.items.map(json), r.page) };
      },
    },
    {
      method: 'post',
      path: '/v1/orgs/:organizationId/saml',
      operationId: 'createOrganizationSAMLProvider',
      summary: 'Create a SAML provider (admins)',
      tags: ['sso'],
      params: ORG_PARAM,
      body: CREATE_SAML_PROVIDER,
      success: { status: 201, description: 'The SAML provider', schema: officialResponse('createOrganizationSAMLProvider') },
      refusals: [{ status: 400, description: '`certificate` is not one X.509 certificate in PEM form; `defaultTeam` is no team of this organization' }],
      async handler({ caller, deadline, params, body }) {
        const b = body as SamlBody & { label: string };
        const p = await saml.createSamlProvider({ organizationId: params.organizationId, ...settings(b), label: b.label }, { caller, deadline });
        const out = json(p);
        return { status: 201, body: out, headers: { Location: out.urls.location } };
      },
    },
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/saml/:samlProviderId',
      operationId: 'getOrganizationSAMLProviderById',
      summary: 'Get a SAML provider (admins)',
      tags: ['sso'],
      params: PROVIDER_PARAMS,
      success: { status: 200, description: 'The SAML provider', schema: officialResponse('getOrganizationSAMLProviderById') },
      async handler({ caller, deadline, params }) {
        return { body: json(await saml.getSamlProvider({ organizationId: params.organizationId, samlProviderId: params.samlProviderId }, { caller, deadline })) };
      },
    },
    {
      method: 'patch',
      path: '/v1/orgs/:organizationId/saml/:samlProviderId',
      operationId: 'updateOrganizationSAMLProvider',
      summary: 'Update a SAML provider (admins)',
      tags: ['sso'],
      params: PROVIDER_PARAMS,
      body: UPDATE_SAML_PROVIDER,
      success: { status: 200, description: 'The updated SAML provider', schema: officialResponse('updateOrganizationSAMLProvider') },
      refusals: [{ status: 400, description: '`certificate` is not one X.509 certificate in PEM form; `defaultTeam` is no team of this organization' }],
      async handler({ caller, deadline, params, body }) {
        const p = await saml.updateSamlProvider(
          { organizationId: params.organizationId, samlProviderId: params.samlProviderId, ...settings(body as SamlBody) },
          { caller, deadline },
        );
        return { body: json(p) };
      },
    },
    {
      method: 'delete',
      path: '/v1/orgs/:organizationId/saml/:samlProviderId',
      operationId: 'deleteOrganizationSAMLProvider',
      summary: 'Delete a SAML provider (admins); 204 whether or not there was one',
      tags: ['sso'],
      params: PROVIDER_PARAMS,
      success: { status: 204, description: 'The SAML provider was deleted, or did not exist' },
      async handler({ caller, deadline, params }) {
        await saml.deleteSamlProvider({ organizationId: params.organizationId, samlProviderId: params.samlProviderId }, { caller, deadline });
        return {};
      },
    },
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/sso',
      operationId: 'listSSOProviderLoginsInOrganization',
      summary: "The organization's SSO sign-in choices (its active providers), for its members",
      tags: ['sso'],
      params: ORG_PARAM,
      success: { status: 200, description: 'The sign-in choices', schema: officialResponse('listSSOProviderLoginsInOrganization') },
      async handler({ caller, deadline, params }) {
        const r = await saml.listSsoProviderLogins({ organizationId: params.organizationId }, { caller, deadline });
        return { body: { items: r.items.map(ssoProviderLoginJson) } };
      },
    },
  ];
}
