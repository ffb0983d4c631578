import { componentSchemasFor } from './official-schemas';
import { JsonSchema, openApiPath, RouteRegistry } from './route-registry';
import type { RawRoute } from './raw-routes';
import { SESSION_COOKIE } from './session-cookie';
import { IDEMPOTENCY_KEY_PARAMETER, IDEMPOTENCY_KEY_REFUSALS } from './idempotency-key';
import { JSON_VALUE_ID, jsonValueSchema } from './schemas';
import { documentComponentRef, documentComponents } from './document-schema';

const ERROR: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' } } } },
};

const JSON_VALUE_REF = '#/components/schemas/JsonValue';

/** The header of every 429: when to send the request again. */
const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before sending the request again', schema: { type: 'integer', minimum: 1 } } };

/** The gateway's own component schemas; the others are the vendored official ones (official-schemas.ts). */
const OWN_SCHEMAS: Record<string, JsonSchema> = { Error: ERROR, JsonValue: jsonValueSchema(JSON_VALUE_REF) };

/** Request schemas name free-form JSON and the official document by their ids (for ajv); the document names their components. */
function withComponentRefs<T>(node: T): T {
  if (Array.isArray(node)) return node.map(withComponentRefs) as T;
  if (!node || typeof node !== 'object') return node;
  const ref = (v: unknown) => (v === JSON_VALUE_ID ? JSON_VALUE_REF : (typeof v === 'string' && documentComponentRef(v)) || v);
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === '$ref' ? ref(v) : withComponentRefs(v)])) as T;
}

/**
 * The OpenAPI 3.1 document of every served route, built from the same specs that validate them.
 * Success schemas are the official GitBook ones (see docs/openapi-document.md); every component they
 * reference is included, and a reference to no known schema fails here, at start-up.
 */
export function buildOpenApiDocument(registry: RouteRegistry, publicUrl: string, rawRoutes: readonly RawRoute[] = []) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of rawRoutes) if (r.document) (paths[openApiPath(r.path)] ??= {})[r.method] = rawOperation(r.document);
  for (const r of registry.routes) {
    const parameters = [
      ...Object.entries(r.params ?? {}).map(([name, schema]) => ({ name, in: 'path', required: true, schema })),
      ...Object.entries(r.query ?? {}).map(([name, schema]) => ({ name, in: 'query', required: r.requiredQuery?.includes(name) ?? false, schema })),
      ...(r.idempotent ? [IDEMPOTENCY_KEY_PARAMETER] : []),
    ];
    const responses: Record<string, unknown> = {
      [r.success.status]: r.success.schema
        ? { description: r.success.description, content: { 'application/json': { schema: r.success.schema } } }
        : { description: r.success.description },
      default: { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    };
    for (const a of r.alternatives ?? [])
      responses[a.status] = a.schema ? { description: a.description, content: { 'application/json': { schema: a.schema } } } : { description: a.description };
    for (const f of [...(r.refusals ?? []), ...(r.idempotent ? IDEMPOTENCY_KEY_REFUSALS : [])])
      responses[f.status] = {
        description: f.description,
        ...(f.status === 429 ? { headers: RETRY_AFTER } : {}),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    const operation: Record<string, unknown> = { operationId: r.operationId, summary: r.summary, tags: r.tags, parameters, responses };
    if (r.description) operation.description = r.description;
    if (r.auth === 'none') operation.security = [];
    // an empty requirement: no credentials, or either scheme
    if (r.auth === 'optional') operation.security = [{}, { bearer: [] }, { session: [] }];
    if (r.body) operation.requestBody = { required: !r.bodyOptional, content: { 'application/json': { schema: r.body } } };
    (paths[openApiPath(r.path)] ??= {})[r.method] = withComponentRefs(operation);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Bindery API', version: '1', description: 'The GitBook management API, self-hosted.' },
    servers: [{ url: publicUrl }],
    security: [{ bearer: [] }, { session: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE } },
      schemas: { ...componentSchemasFor([paths], { ...withComponentRefs(documentComponents()), ...OWN_SCHEMAS }), Error: ERROR },
    },
    paths,
  };
}

/** The operation of a documented raw route (Bindery's sign-in routes: forms, redirects, XML). */
function rawOperation(d: NonNullable<RawRoute['document']>) {
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(d.responses)) {
    const headers = r.headers && Object.fromEntries(Object.entries(r.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }]));
    responses[status] = {
      description: r.description,
      ...(headers ? { headers } : {}),
      ...(r.contentType ? { content: { [r.contentType]: { schema: { type: 'string' } } } } : {}),
    };
  }
  responses.default = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  return {
    operationId: d.operationId,
    summary: d.summary,
    ...(d.description ? { description: d.description } : {}),
    tags: d.tags,
    parameters: d.parameters ?? [],
    security: d.security === 'none' ? [] : [{ session: [] }],
    ...(d.form ? { requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: d.form.schema } } } } : {}),
    responses,
  };
}
