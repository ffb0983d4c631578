import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { createGatewayApp, JsonSchema, RouteRegistry } from '@bindery/gateway/http';
import type { IdentityClients } from '@bindery/identity/client';
import { registerIdentityRoutes } from './identity-routes';
import { signInRoutes } from './sign-in-routes';

const root = join(__dirname, '../../../..');
type Json = Record<string, unknown>;

/** Clients whose every method throws: building the routes never calls them. */
const stubClients = new Proxy(
  {},
  {
    get: (_t, service) =>
      new Proxy(
        {},
        {
          get: (_s, method) => () => {
            throw new Error(`${String(service)}.${String(method)} called while building the document`);
          },
        },
      ),
  },
) as unknown as IdentityClients;

const registry = registerIdentityRoutes(new RouteRegistry(), stubClients, { publicUrl: 'https://docs.bindery.test', appUrl: 'https://app.bindery.test' });
// Bindery's sign-in routes (forms, redirects, XML) are documented beside them.
const rawRoutes = signInRoutes(stubClients.signIn, { publicUrl: 'https://docs.bindery.test', appUrl: 'https://app.bindery.test' });

/** /openapi.json as the gateway app serves it, from an in-memory request (nothing listens). */
function servedDocument(): Promise<Json> {
  const app = createGatewayApp({
    registry,
    authenticate: () => Promise.reject(new Error('not called')),
    readiness: {},
    publicUrl: 'https://docs.bindery.test',
    requestBudgetMs: 1000,
    bodyLimit: '1mb',
    rawRoutes,
  });
  const req = new IncomingMessage(new Socket());
  req.method = 'GET';
  req.url = '/openapi.json';
  req.headers = {};
  req.push(null);
  const res = new ServerResponse(req);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.write = ((chunk: string | Buffer) => {
      chunks.push(Buffer.from(chunk));
      return true;
    }) as typeof res.write;
    res.end = ((chunk?: string | Buffer) => {
      if (chunk) chunks.push(Buffer.from(chunk));
      if (res.statusCode !== 200) reject(new Error(`GET /openapi.json: ${res.statusCode}`));
      else resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      return res;
    }) as typeof res.end;
    app(req as never, res as never, reject);
  });
}

const NO_BODY = new Set([204, 205, 304]);
const vendored = JSON.parse(readFileSync(join(root, 'libs/gateway/http/src/generated/official-schemas.json'), 'utf8')) as { operations: Record<string, { schema: JsonSchema }> };
const OFFICIAL_RESPONSES = Object.values(vendored.operations).map((o) => JSON.stringify(o.schema));

function pointer(doc: Json, ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .map((p) => decodeURIComponent(p).replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Json)[key] : undefined), doc);
}

function refs(node: unknown, into: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refs(n, into));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref') into.push(v as string);
      else refs(v, into);
    }
  }
  return into;
}

/** A schema that says what the body looks like, not merely which keys it has. */
function describesShape(schema: Json, doc: Json): boolean {
  if (typeof schema.$ref === 'string') return describesShape(pointer(doc, schema.$ref) as Json, doc);
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) if (Array.isArray(schema[k])) return (schema[k] as Json[]).some((s) => describesShape(s, doc));
  if (schema.type === 'object') return schema.properties !== undefined || schema.additionalProperties !== undefined;
  return schema.type !== undefined || schema.enum !== undefined || schema.const !== undefined;
}

describe('the served OpenAPI document', () => {
  let doc: Json;
  beforeAll(async () => {
    doc = await servedDocument();
  });

  const operations = () =>
    Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));

  it('is valid OpenAPI 3.1 (@seriousme/openapi-schema-validator)', () => {
    const r = spawnSync(process.execPath, [join(root, 'tools/openapi/validate-document.mjs')], { input: JSON.stringify(doc), encoding: 'utf8' });
    const verdict = JSON.parse(r.stdout || '{}');
    expect({ status: r.status, stderr: r.stderr, ...verdict }).toEqual({ status: 0, stderr: '', valid: true, version: '3.1', errors: null });
  });

  it('gives every route a success schema describing the body (none for bodiless statuses)', () => {
    expect(operations()).toHaveLength(registry.routes.length + rawRoutes.length);
    const problems: string[] = [];
    for (const r of registry.routes) {
      const response = ((doc.paths as Json)[r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')] as Record<string, Json>)[r.method].responses as Record<string, Json>;
      const content = response[String(r.success.status)]?.content as Record<string, { schema: Json }> | undefined;
      if (NO_BODY.has(r.success.status)) {
        if (content || r.success.schema) problems.push(`${r.operationId}: ${r.success.status} has no body, yet a schema is declared`);
        continue;
      }
      const schema = content?.['application/json']?.schema;
      if (!schema) problems.push(`${r.operationId}: no success schema`);
      else if (!describesShape(schema, doc)) problems.push(`${r.operationId}: the schema does not describe the body: ${JSON.stringify(schema)}`);
    }
    expect(problems).toEqual([]);
  });

  it('takes every success schema from the official API, except the listed ones', () => {
    const notOfficialResponses = registry.routes
      .filter((r) => r.success.schema && !OFFICIAL_RESPONSES.includes(JSON.stringify(r.success.schema)))
      .map((r) => r.operationId)
      .sort();
    // adminCreateApiToken: Bindery's own (the official API issues no tokens). adminCreateUser answers
    // officialSchema('User'), the same schema as getAuthenticatedUser's official response.
    expect(notOfficialResponses).toEqual(['adminCreateApiToken']);
  });

  it('resolves every $ref, all of them local', () => {
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(0);
    expect(all.filter((r) => !r.startsWith('#/') || pointer(doc, r) === undefined)).toEqual([]);
  });

  it('has response schemas that compile as JSON Schema 2020-12 (strict ajv: no unknown keyword or format)', () => {
    const ajv = addFormats(new Ajv2020({ strict: true, strictTypes: false, strictRequired: false, allErrors: true }));
    ajv.addFormat('emoji', true);
    // The components as $defs of one schema; the responses' references rewritten to point there.
    const base = 'https://bindery.test/components';
    const rebase = (node: unknown): unknown =>
      JSON.parse(JSON.stringify(node), (k, v) => (k === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', `${base}#/$defs/`) : v));
    ajv.addSchema({ $id: base, $defs: rebase((doc.components as Json).schemas) as Json });
    const failures: string[] = [];
    for (const { path, method, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
        const schema = (response.content as Record<string, { schema: Json }> | undefined)?.['application/json']?.schema;
        if (!schema) continue;
        try {
          ajv.compile(rebase(schema) as Json);
        } catch (err) {
          failures.push(`${method.toUpperCase()} ${path} ${status}: ${(err as Error).message}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('is built from vendored schemas that are up to date (npm run openapi:vendor)', () => {
    const r = spawnSync(process.execPath, [join(root, 'tools/openapi/vendor-schemas.js'), '--check'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it("declares what it refuses of schema-valid requests: NUL in field names, and each route's refusals with the error body", () => {
    const paths = doc.paths as Record<string, Record<string, Json>>;
    const team = paths['/v1/orgs/{organizationId}/teams'].put as { requestBody: Json; responses: Record<string, Json> };
    const body = (team.requestBody.content as Json)['application/json'] as { schema: Json };
    expect(body.schema.propertyNames).toEqual({ pattern: '^[^\\u0000]*$' });
    expect(team.responses['400']).toMatchObject({
      description: expect.stringContaining('not a member'),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    });
  });
});
