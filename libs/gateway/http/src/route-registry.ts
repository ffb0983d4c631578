import type { Caller } from '@bindery/platform/grpc';
import type { JsonSchema } from './json-schema';
import { withTextRule } from './schemas';

export { componentSchemasFor, officialResponse, officialSchema } from './official-schemas';
export { officialLatestResponse, officialRequest } from './official-inlined';
export type { JsonSchema };
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RequestContext {
  /** absent on routes with `auth: 'none'`, and on `auth: 'optional'` ones called without credentials */
  caller: Caller;
  /** when this request's budget runs out; every downstream call uses it */
  deadline: Date;
  /** the request's `Idempotency-Key`, on routes declared `idempotent` (idempotency-key.ts) */
  idempotencyKey?: string;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}

export interface RouteResult {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * One endpoint: its schemas (validated by ajv, strictly), its success response, and its handler.
 * Declaring a route is the only way to serve one, so every route is validated and documented in
 * /openapi.json alike.
 */
export interface RouteSpec {
  method: HttpMethod;
  /** express syntax: /v1/orgs/:organizationId; `*name` takes the rest of the path, slashes included */
  path: string;
  operationId: string;
  summary: string;
  /** more than the summary: what is refused or not supported yet, shown in /openapi.json */
  description?: string;
  tags: string[];
  /**
   * Who may call: `user` (the default) a signed-in caller; `none` anyone, no credentials read;
   * `optional` anyone: credentials sent are checked as on any route (an invalid token is 401, a site
   * token's caller 403 unless `siteToken`), and a request without any goes on with no caller.
   */
  auth?: 'user' | 'none' | 'optional';
  /**
   * A site token's caller may call it: a read of published content, which the service limits to
   * the token's scope (`siteReadable` methods). Every other route answers such a caller 403.
   */
  siteToken?: boolean;
  params?: Record<string, JsonSchema>;
  query?: Record<string, JsonSchema>;
  /** query parameters that must be given (the others are optional) */
  requiredQuery?: string[];
  body?: JsonSchema;
  /**
   * The request's budget when it is not the gateway's REQUEST_BUDGET_MS: only for work that is long
   * by nature (an import, a rebuild), which the client waits for.
   */
  budgetMs?: number;
  /** takes the `Idempotency-Key` header (a create or a merge a client may retry): see idempotency-key.ts */
  idempotent?: boolean;
  /** the body may be left out (validated by `body` when sent) */
  bodyOptional?: boolean;
  /**
   * The success response. `schema` is the full body schema, normally the official one:
   * `officialResponse('<official operationId>')` or `officialSchema('<component>')`; none when the
   * status has no body (204, 205).
   */
  success: { status: number; description: string; schema?: JsonSchema };
  /**
   * other answers the handler may choose: without a body (e.g. 204 "did not exist" next to a
   * DELETE's 205), or with the `schema` given (e.g. 201 "created" next to a create-or-update's 200)
   */
  alternatives?: Array<{ status: number; description: string; schema?: JsonSchema }>;
  /**
   * Refusals of a request the schemas accept, with the error body: what no schema can say (an id in
   * the body that names nothing of this organization, a state that forbids the change). Declared
   * in /openapi.json with when each happens; 401, 403, 404 and 409 need no declaration. A 429 is
   * declared with its `Retry-After` header (seconds), which the gateway sends with every 429.
   */
  refusals?: Array<{ status: 400 | 412 | 429; description: string }>;
  handler(ctx: RequestContext): Promise<RouteResult>;
}

export class RouteRegistry {
  readonly routes: RouteSpec[] = [];

  /** Registers routes; their request schemas get the text rule (withTextRule) for validation and the document alike. */
  add(...routes: RouteSpec[]): this {
    for (const r of routes) {
      if (this.routes.some((x) => x.operationId === r.operationId)) throw new Error(`duplicate operationId ${r.operationId}`);
      const textRule = (schemas?: Record<string, JsonSchema>) => schemas && Object.fromEntries(Object.entries(schemas).map(([k, v]) => [k, withTextRule(v)]));
      this.routes.push({ ...r, params: textRule(r.params), query: textRule(r.query), body: r.body && withTextRule(r.body) });
    }
    return this;
  }
}

export function openApiPath(path: string): string {
  return path.replace(/[:*]([A-Za-z0-9_]+)/g, '{$1}');
}
