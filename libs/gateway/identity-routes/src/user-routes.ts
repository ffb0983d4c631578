import { notFound } from '@bindery/platform/errors';
import { ID_PARAM, officialResponse, officialSchema, RouteSpec } from '@bindery/gateway/http';
import type { IdentityClient } from '@bindery/identity/client';
import { CREATE_TOKEN, CREATE_USER } from './identity-schemas';
import { Urls, userJson } from './representations';

/** An issued API token (a Bindery extra: the official API has no token issuance). */
const API_TOKEN = {
  type: 'object',
  additionalProperties: false,
  required: ['object', 'id', 'label', 'token', 'createdAt'],
  properties: {
    object: { type: 'string', const: 'api-token' },
    id: { type: 'string' },
    label: { type: 'string' },
    token: { type: 'string', description: 'The secret, shown this once' },
    createdAt: { type: 'string', format: 'date-time' },
  },
};

/** GET /v1/user and the instance-administration routes under /admin. */
export function userRoutes(identity: IdentityClient, urls: Urls): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/v1/user',
      operationId: 'getAuthenticatedUser',
      summary: 'Get the authenticated user',
      tags: ['users'],
      success: { status: 200, description: 'The user', schema: officialResponse('getAuthenticatedUser') },
      async handler({ caller, deadline }) {
        return { body: userJson(await identity.getCurrentUser({}, { caller, deadline }), urls) };
      },
    },
    {
      method: 'get',
      path: '/v1/users/:userId',
      operationId: 'getUserById',
      summary: 'Get a user by its ID',
      description:
        'The user is found when the caller is that user, shares an organization with them, or holds a site token of an organization they belong to (then without the e-mail address); any other user answers 404, like one that does not exist.',
      tags: ['users'],
      siteToken: true,
      params: { userId: ID_PARAM },
      success: { status: 200, description: 'The user', schema: officialSchema('User') },
      async handler({ caller, deadline, params }) {
        const { users } = await identity.lookupUsers({ userIds: [params.userId] }, { caller, deadline });
        const user = users.find((u) => u.id === params.userId);
        if (!user) throw notFound('User');
        return { body: userJson(user, urls) };
      },
    },
    {
      method: 'post',
      path: '/admin/users',
      operationId: 'adminCreateUser',
      summary: 'Create a user (instance administrator)',
      tags: ['admin'],
      body: CREATE_USER,
      success: { status: 201, description: 'The new user', schema: officialSchema('User') },
      async handler({ caller, deadline, body }) {
        const b = body as { email: string; displayName: string };
        const user = await identity.createUser({ email: b.email, displayName: b.displayName }, { caller, deadline });
        return { status: 201, body: userJson(user, urls) };
      },
    },
    {
      method: 'post',
      path: '/admin/users/:userId/tokens',
      operationId: 'adminCreateApiToken',
      summary: 'Issue an API token for a user (instance administrator); the token is shown once',
      tags: ['admin'],
      params: { userId: ID_PARAM },
      body: CREATE_TOKEN,
      success: { status: 201, description: 'The token', schema: API_TOKEN },
      async handler({ caller, deadline, params, body }) {
        const t = await identity.createApiToken({ userId: params.userId, label: (body as { label?: string }).label }, { caller, deadline });
        return { status: 201, body: { object: 'api-token', id: t.id, label: t.label, token: t.token, createdAt: t.createdAt } };
      },
    },
    {
      method: 'delete',
      path: '/admin/users/:userId/tokens/:tokenId',
      operationId: 'adminRevokeApiToken',
      summary: 'Revoke an API token (instance administrator); gateways stop accepting it within AUTH_CACHE_TTL_MS',
      tags: ['admin'],
      params: { userId: ID_PARAM, tokenId: ID_PARAM },
      success: { status: 205, description: 'The token was revoked' },
      alternatives: [{ status: 204, description: 'The token did not exist' }],
      async handler({ caller, deadline, params }) {
        return (await identity.revokeApiToken({ userId: params.userId, tokenId: params.tokenId }, { caller, deadline })).revoked ? {} : { status: 204 };
      },
    },
  ];
}
