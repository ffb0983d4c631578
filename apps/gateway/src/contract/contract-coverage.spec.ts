import { openApiPath } from '@bindery/gateway/http';
import type { EventsAdminClient } from '@bindery/platform/grpc';
import { routeTable, SERVICE_MODULES } from '@bindery/gateway/server';
import reference from './reference-operations.json';

/** `METHOD /path` with every parameter written `{}` (the reference names some differently). */
const shape = (method: string, path: string) => `${method.toUpperCase()} ${openApiPath(path).replace(/\{[^}]+\}/g, '{}')}`;

/**
 * Operations of the reference the gateway does not serve yet, each declared here by area. An
 * operation leaves this list when it is served (the test fails until it does), so it only shrinks.
 */
const NOT_SERVED: Record<string, string[]> = {};

/** Served operations the reference lacks: from the latest official spec, or self-hosting extras. */
const EXTRAS: string[] = [
  'DELETE /admin/users/{}/tokens/{}',
  'DELETE /v1/collections/{}/permissions/teams/{}',
  'DELETE /v1/collections/{}/permissions/users/{}',
  'DELETE /v1/orgs/{}/sites/{}/redirects/{}',
  'DELETE /v1/orgs/{}/sites/{}/site-spaces/{}/customization',
  'DELETE /v1/orgs/{}/webhooks/{}',
  'DELETE /v1/spaces/{}/change-requests/{}/comments/{}/replies/{}',
  'DELETE /v1/spaces/{}/permissions/teams/{}',
  'DELETE /v1/spaces/{}/permissions/users/{}',
  'GET /admin/search/rebuilds/{}',
  'GET /admin/services/git-sync',
  'GET /admin/services/sites',
  'GET /admin/services/webhooks',
  'GET /admin/services/{}/dead-letters',
  'GET /v1/collections/{}/permissions/aggregate',
  'GET /v1/collections/{}/permissions/teams',
  'GET /v1/collections/{}/permissions/users',
  'GET /v1/org/{}/imports',
  'GET /v1/org/{}/imports/{}',
  'GET /v1/orgs/{}/change-requests',
  'GET /v1/orgs/{}/link-invites',
  'GET /v1/orgs/{}/link-invites/{}',
  'GET /v1/orgs/{}/openapi/{}/versions/latest/content/raw',
  'GET /v1/orgs/{}/sites/{}/customization',
  'GET /v1/orgs/{}/sites/{}/publishing/auth',
  'GET /v1/orgs/{}/sites/{}/redirect',
  'GET /v1/orgs/{}/sites/{}/redirects',
  'GET /v1/orgs/{}/sites/{}/site-spaces/{}/customization',
  'GET /v1/orgs/{}/sites/{}/structure',
  'GET /v1/orgs/{}/spaces',
  'GET /v1/orgs/{}/webhooks',
  'GET /v1/orgs/{}/webhooks/{}',
  'GET /v1/orgs/{}/webhooks/{}/deliveries',
  'GET /v1/spaces/{}/change-requests',
  'GET /v1/spaces/{}/change-requests/{}',
  'GET /v1/spaces/{}/change-requests/{}/changes',
  'GET /v1/spaces/{}/change-requests/{}/content/page/{}/meta-links',
  'GET /v1/spaces/{}/change-requests/{}/content/path/{}',
  'GET /v1/spaces/{}/change-requests/{}/content/reusable-contents/{}',
  'GET /v1/spaces/{}/change-requests/{}/reviews',
  'GET /v1/spaces/{}/change-requests/{}/reviews/{}',
  'GET /v1/spaces/{}/content/page/{}/meta-links',
  'GET /v1/spaces/{}/content/path/{}',
  'GET /v1/spaces/{}/content/reusable-contents/{}',
  'GET /v1/spaces/{}/embed',
  'GET /v1/spaces/{}/permissions/aggregate',
  'GET /v1/spaces/{}/permissions/teams',
  'GET /v1/spaces/{}/permissions/users',
  'GET /v1/spaces/{}/revisions/{}',
  'GET /v1/spaces/{}/revisions/{}/changes',
  'GET /v1/spaces/{}/revisions/{}/files',
  'GET /v1/spaces/{}/revisions/{}/files/{}',
  'GET /v1/spaces/{}/revisions/{}/page/{}',
  'GET /v1/spaces/{}/revisions/{}/page/{}/document',
  'GET /v1/spaces/{}/revisions/{}/page/{}/meta-links',
  'GET /v1/spaces/{}/revisions/{}/pages',
  'GET /v1/spaces/{}/revisions/{}/path/{}',
  'GET /v1/spaces/{}/revisions/{}/reusable-contents/{}',
  'GET /v1/spaces/{}/revisions/{}/reusable-contents/{}/document',
  'GET /v1/user',
  'GET /v1/users/{}',
  'PATCH /v1/collections/{}/permissions/teams/{}',
  'PATCH /v1/collections/{}/permissions/users/{}',
  'PATCH /v1/orgs/{}/link-invites/{}',
  'PATCH /v1/orgs/{}/openapi/{}',
  'PATCH /v1/orgs/{}/sites/{}/redirects/{}',
  'PATCH /v1/orgs/{}/sites/{}/site-spaces/{}/customization',
  'PATCH /v1/orgs/{}/sites/{}/structure/sort',
  'PATCH /v1/orgs/{}/webhooks/{}',
  'PATCH /v1/spaces/{}/change-requests/{}',
  'PATCH /v1/spaces/{}/permissions/teams/{}',
  'PATCH /v1/spaces/{}/permissions/users/{}',
  'POST /admin/search/rebuild',
  'POST /admin/search/rebuilds/{}/cancel',
  'POST /admin/services/{}/dead-letters/{}/replay',
  'POST /admin/users',
  'POST /admin/users/{}/tokens',
  'POST /v1/collections/{}/permissions',
  'POST /v1/org/{}/imports',
  'POST /v1/org/{}/imports/{}/cancel',
  'POST /v1/orgs',
  'POST /v1/orgs/{}/invites',
  'POST /v1/orgs/{}/invites/{}',
  'POST /v1/orgs/{}/join',
  'POST /v1/orgs/{}/link-invites',
  'POST /v1/orgs/{}/sites/{}/publish',
  'POST /v1/orgs/{}/sites/{}/publishing/auth/regenerate',
  'POST /v1/orgs/{}/sites/{}/redirects',
  'POST /v1/orgs/{}/sites/{}/search',
  'POST /v1/orgs/{}/sites/{}/unpublish',
  'POST /v1/orgs/{}/spaces',
  'POST /v1/orgs/{}/webhooks',
  'POST /v1/orgs/{}/webhooks/{}/deliveries/{}/redeliver',
  'POST /v1/spaces/{}/change-requests',
  'POST /v1/spaces/{}/change-requests/{}/content',
  'POST /v1/spaces/{}/change-requests/{}/merge',
  'POST /v1/spaces/{}/change-requests/{}/reviews',
  'POST /v1/spaces/{}/change-requests/{}/update',
  'POST /v1/spaces/{}/permissions',
  'POST /v1/urls/published',
  'PUT /v1/orgs/{}/sites/{}/customization',
  'PUT /v1/spaces/{}/change-requests/{}/comments/{}/replies/{}',
];

/** The operations the gateway serves, from the same route table the gateway builds at start. */
function servedOperations(): string[] {
  // Building routes connects nothing and calls no service: any stand-in will do for the clients.
  const none = new Proxy({}, { get: () => none }) as { close(): void };
  const eventsAdmin = Object.fromEntries(SERVICE_MODULES.map(({ module }) => [module.service, none as unknown as EventsAdminClient]));
  const context = { publicUrl: 'http://gateway.test', appUrl: 'http://app.test', clientsOf: <C>() => none as C };
  return routeTable(() => none, eventsAdmin, context).registry.routes.map((r) => shape(r.method, r.path));
}

describe('contract coverage: the reference operations against the gateway route table', () => {
  const served = new Set(servedOperations());
  const referenced = reference.map((o) => shape(o.method, o.path));
  const declared = Object.values(NOT_SERVED).flat();

  test('the reference lists its 121 operations, each once', () => {
    expect(referenced).toHaveLength(121);
    expect(new Set(referenced).size).toBe(referenced.length);
  });

  test('every operation of the reference is served or declared not served yet', () => {
    expect(referenced.filter((op) => !served.has(op) && !declared.includes(op))).toEqual([]);
  });

  test('no operation declared not served is served (served ones leave the list)', () => {
    expect(declared.filter((op) => served.has(op))).toEqual([]);
    expect(declared.filter((op) => !referenced.includes(op))).toEqual([]);
  });

  test('every served operation outside the reference is a declared extra', () => {
    expect([...served].filter((op) => !referenced.includes(op) && !EXTRAS.includes(op))).toEqual([]);
    expect(EXTRAS.filter((op) => !served.has(op) || referenced.includes(op))).toEqual([]);
  });
});
