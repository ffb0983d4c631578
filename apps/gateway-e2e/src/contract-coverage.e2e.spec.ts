import { sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { http } from './http-client';

type Status = 'routed' | 'not-yet';

/**
 * Every operation of the API reference, and whether the gateway serves it yet. An operation marked
 * routed must be in /openapi.json; one marked not-yet must not be — so nothing is silently missing.
 */
export const REFERENCE_OPERATIONS: Array<[string, string, Status]> = [
  ['GET', '/v1/collections/{collectionId}', 'routed'],
  ['DELETE', '/v1/collections/{collectionId}', 'routed'],
  ['PATCH', '/v1/collections/{collectionId}', 'routed'],
  ['GET', '/v1/collections/{collectionId}/spaces', 'routed'],
  ['POST', '/v1/collections/{collectionId}/move', 'routed'],
  ['POST', '/v1/collections/{collectionId}/transfer', 'routed'],
  ['GET', '/v1/orgs/{orgId}/collections', 'routed'],
  ['POST', '/v1/orgs/{orgId}/collections', 'routed'],
  ['GET', '/v1/orgs', 'routed'],
  ['GET', '/v1/orgs/{orgId}', 'routed'],
  ['PATCH', '/v1/orgs/{orgId}', 'routed'],
  ['DELETE', '/v1/orgs/{orgId}/link-invites/{inviteId}', 'routed'],
  ['GET', '/v1/orgs/{orgId}/search', 'not-yet'],
  ['GET', '/v1/email-domains/{emailDomain}/orgs', 'routed'],
  ['POST', '/v1/orgs/{orgId}/ping', 'routed'],
  ['GET', '/v1/orgs/{orgId}/members', 'routed'],
  ['GET', '/v1/orgs/{orgId}/members/{userId}', 'routed'],
  ['DELETE', '/v1/orgs/{orgId}/members/{userId}', 'routed'],
  ['PATCH', '/v1/orgs/{orgId}/members/{userId}', 'routed'],
  ['POST', '/v1/orgs/{orgId}/members/{userId}/sso', 'routed'],
  ['GET', '/v1/orgs/{orgId}/members/{userId}/spaces', 'routed'],
  ['GET', '/v1/orgs/{orgId}/members/{userId}/teams', 'routed'],
  ['GET', '/v1/orgs/{orgId}/teams', 'routed'],
  ['PUT', '/v1/orgs/{orgId}/teams', 'routed'],
  ['GET', '/v1/orgs/{orgId}/teams/{teamId}', 'routed'],
  ['DELETE', '/v1/orgs/{orgId}/teams/{teamId}', 'routed'],
  ['PATCH', '/v1/orgs/{orgId}/teams/{teamId}', 'routed'],
  ['GET', '/v1/orgs/{orgId}/teams/{teamId}/members', 'routed'],
  ['PUT', '/v1/orgs/{orgId}/teams/{teamId}/members', 'routed'],
  ['PUT', '/v1/orgs/{orgId}/teams/{teamId}/members/{userId}', 'routed'],
  ['DELETE', '/v1/orgs/{orgId}/teams/{teamId}/members/{userId}', 'routed'],
  ['GET', '/v1/orgs/{orgId}/saml', 'routed'],
  ['POST', '/v1/orgs/{orgId}/saml', 'routed'],
  ['GET', '/v1/orgs/{orgId}/saml/{samlProviderId}', 'routed'],
  ['DELETE', '/v1/orgs/{orgId}/saml/{samlProviderId}', 'routed'],
  ['PATCH', '/v1/orgs/{orgId}/saml/{samlProviderId}', 'routed'],
  ['GET', '/v1/orgs/{orgId}/sso', 'routed'],
  ['GET', '/v1/spaces/{spaceId}', 'routed'],
  ['DELETE', '/v1/spaces/{spaceId}', 'routed'],
  ['PATCH', '/v1/spaces/{spaceId}', 'routed'],
  ['POST', '/v1/spaces/{spaceId}/duplicate', 'routed'],
  ['POST', '/v1/spaces/{spaceId}/restore', 'routed'],
  ['POST', '/v1/spaces/{spaceId}/move', 'routed'],
  ['POST', '/v1/spaces/{spaceId}/transfer', 'routed'],
  ['GET', '/v1/spaces/{spaceId}/links', 'routed'],
  ['GET', '/v1/spaces/{spaceId}/search', 'not-yet'],
  ['GET', '/v1/spaces/{spaceId}/content', 'routed'],
  ['POST', '/v1/spaces/{spaceId}/content/import', 'not-yet'],
  ['GET', '/v1/spaces/{spaceId}/content/pages', 'routed'],
  ['GET', '/v1/spaces/{spaceId}/content/files', 'routed'],
  ['GET', '/v1/spaces/{spaceId}/content/files/{fileId}', 'routed'],
  ['GET', '/v1/spaces/{spaceId}/content/files/{fileId}/backlinks', 'routed'],
  ['GET', '/v1/spaces/{spaceId}/content/page/{pageId}', 'routed'],
  ['GET', '/v1/spaces/{spaceId}/content/page/{pageId}/links', 'routed'],
  ['GET', '/v1/orgs/{orgId}/sites', 'not-yet'],
  ['POST', '/v1/orgs/{orgId}/sites', 'not-yet'],
  ['GET', '/v1/orgs/{orgId}/sites/{siteId}', 'not-yet'],
  ['DELETE', '/v1/orgs/{orgId}/sites/{siteId}', 'not-yet'],
  ['PATCH', '/v1/orgs/{orgId}/sites/{siteId}', 'not-yet'],
  ['GET', '/v1/orgs/{orgId}/sites/{siteId}/adaptive-schema', 'not-yet'],
  ['PUT', '/v1/orgs/{orgId}/sites/{siteId}/adaptive-schema', 'not-yet'],
  ['GET', '/v1/orgs/{orgId}/sites/{siteId}/adaptive-schema/template-conditions', 'not-yet'],
  ['GET', '/v1/orgs/{orgId}/sites/{siteId}/published', 'not-yet'],
  ['GET', '/v1/orgs/{orgId}/sites/{siteId}/sections', 'not-yet'],
  ['POST', '/v1/orgs/{orgId}/sites/{siteId}/sections', 'not-yet'],
  ['DELETE', '/v1/orgs/{orgId}/sites/{siteId}/sections/{siteSectionId}', 'not-yet'],
  ['GET', '/v1/orgs/{orgId}/sites/{siteId}/section-groups', 'not-yet'],
  ['GET', '/v1/orgs/{orgId}/sites/{siteId}/site-spaces', 'not-yet'],
  ['GET', '/v1/orgs/{orgId}/sites/{siteId}/share-links(page,limit)', 'not-yet'],
  ['GET', '/v1/orgs/{orgId}/openapi', 'not-yet'],
  ['GET', '/v1/orgs/{orgId}/openapi/{specSlug}', 'not-yet'],
  ['GET', '/v1/orgs/{orgId}/translations', 'not-yet'],
  ['POST', '/v1/spaces/{spaceId}/git/import', 'not-yet'],
  ['POST', '/v1/spaces/{spaceId}/git/export', 'not-yet'],
  ['GET', '/v1/spaces/{spaceId}/git/info', 'not-yet'],
];

/** Served operations the reference lacks: from the latest official spec, or self-hosting extras. */
const EXTRAS = [
  'GET /v1/user',
  'POST /v1/orgs',
  'POST /v1/orgs/{}/invites',
  'GET /v1/orgs/{}/link-invites',
  'POST /v1/orgs/{}/link-invites',
  'GET /v1/orgs/{}/link-invites/{}',
  'PATCH /v1/orgs/{}/link-invites/{}',
  'POST /v1/orgs/{}/invites/{}',
  'POST /v1/orgs/{}/join',
  'GET /v1/orgs/{}/spaces',
  'POST /v1/orgs/{}/spaces',
  'POST /v1/spaces/{}/permissions',
  'GET /v1/spaces/{}/permissions/users',
  'PATCH /v1/spaces/{}/permissions/users/{}',
  'DELETE /v1/spaces/{}/permissions/users/{}',
  'GET /v1/spaces/{}/permissions/teams',
  'PATCH /v1/spaces/{}/permissions/teams/{}',
  'DELETE /v1/spaces/{}/permissions/teams/{}',
  'GET /v1/spaces/{}/permissions/aggregate',
  'GET /v1/spaces/{}/content/path/{}',
  'GET /v1/spaces/{}/revisions/{}',
  'GET /v1/spaces/{}/revisions/{}/pages',
  'GET /v1/spaces/{}/revisions/{}/files',
  'GET /v1/spaces/{}/revisions/{}/files/{}',
  'GET /v1/spaces/{}/revisions/{}/page/{}',
  'GET /v1/spaces/{}/revisions/{}/path/{}',
  'POST /v1/collections/{}/permissions',
  'GET /v1/collections/{}/permissions/users',
  'PATCH /v1/collections/{}/permissions/users/{}',
  'DELETE /v1/collections/{}/permissions/users/{}',
  'GET /v1/collections/{}/permissions/teams',
  'PATCH /v1/collections/{}/permissions/teams/{}',
  'DELETE /v1/collections/{}/permissions/teams/{}',
  'GET /v1/collections/{}/permissions/aggregate',
  'POST /admin/users',
  'POST /admin/users/{}/tokens',
  'DELETE /admin/users/{}/tokens/{}',
];

const shape = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`;

describe('contract coverage', () => {
  let sut: SystemUnderTest;
  beforeAll(async () => {
    sut = await sharedSystem();
  });

  it('serves exactly the operations marked routed, plus the listed extras', async () => {
    const doc = (await http(sut.baseUrl).get('/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const served = new Set(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => shape(m, path))));
    const routed = REFERENCE_OPERATIONS.filter(([, , s]) => s === 'routed').map(([m, p]) => shape(m, p));
    const notYet = REFERENCE_OPERATIONS.filter(([, , s]) => s === 'not-yet').map(([m, p]) => shape(m, p));
    expect(routed.filter((op) => !served.has(op))).toEqual([]);
    expect(notYet.filter((op) => served.has(op))).toEqual([]);
    const known = new Set([...routed, ...EXTRAS]);
    expect([...served].filter((op) => !known.has(op))).toEqual([]);
  });
});
