import { assertMatchesSpec, eventually } from '@bindery/shared/testing';
import type { Client } from './http-client';

/** The official paths of the OpenAPI spec operations (as the official documents write them). */
export const SPEC_PATHS = {
  list: '/orgs/{organizationId}/openapi',
  one: '/orgs/{organizationId}/openapi/{specSlug}',
  versions: '/orgs/{organizationId}/openapi/{specSlug}/versions',
  latest: '/orgs/{organizationId}/openapi/{specSlug}/versions/latest',
  latestContent: '/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content',
  latestRaw: '/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content/raw',
  version: '/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}',
  versionContent: '/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content',
} as const;

/**
 * Validates an answer against both official releases: 0.130.0 (the reference's) and 0.202.0, which
 * has every one of these operations too (the raw content only 0.202.0).
 */
export function assertOfficialAnswer(method: string, path: string, status: number, body: unknown): void {
  if (path !== SPEC_PATHS.latestRaw) assertMatchesSpec('0.130.0', method, path, status, body);
  assertMatchesSpec('0.202.0', method, path, status, body);
}

/** A valid OpenAPI 3.0 document as JSON (`title` makes its content differ). */
export const openapi30 = (title = 'Petstore') =>
  JSON.stringify({
    openapi: '3.0.3',
    info: { title, version: '1.0.0' },
    paths: {
      '/pets': {
        get: {
          operationId: 'listPets',
          responses: { '200': { description: 'The pets', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pets' } } } } },
        },
      },
    },
    components: {
      schemas: { Pet: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } }, Pets: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } },
    },
  });

/** A valid OpenAPI 3.1 document as YAML, with a comment. */
export const openapi31Yaml = `# the trains API
openapi: 3.1.0
info:
  title: Trains
  version: "2.1"
paths:
  /trains/{trainId}:
    get:
      parameters:
        - name: trainId
          in: path
          required: true
          schema: { type: [string, "null"] }
      responses:
        "200":
          description: One train
webhooks:
  departed:
    post:
      responses:
        "200": { description: Received }
`;

/** The spec once its processing has ended (`complete`, with a version or an error code). */
export async function processedSpec(client: Client, orgId: string, slug: string, timeoutMs = 30000): Promise<Record<string, unknown>> {
  return eventually(async () => {
    const res = await client.get(`/v1/orgs/${orgId}/openapi/${slug}`);
    if (res.status !== 200 || res.body.processingState !== 'complete') throw new Error(`${slug}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Record<string, unknown>;
  }, timeoutMs);
}
