import type { NextFunction, Request, Response } from 'express';
import { nameHttpRoute } from '@bindery/platform/telemetry';

/**
 * A route outside `/v1` that answers something other than JSON (a file's bytes, a sign-in's
 * redirects): no ajv schemas, in /openapi.json only with a `document`, no bearer authentication —
 * the handler authorizes the request itself (a download's signed token, a signed SAML response). Failures before the first byte get the error body like every route;
 * after it, the connection is cut (a body shorter than its Content-Length tells the client).
 * Modules declare them with `rawRoutes` (gateway-module.ts); keep them few.
 */
export interface RawRoute {
  method: 'get' | 'post';
  /** express syntax; must not start with /v1 */
  path: string;
  /** how /openapi.json describes it, when it is one of Bindery's documented extras (e.g. sign-in) */
  document?: RawRouteDocument;
  handler(req: Request, res: Response): Promise<void>;
}

/** The OpenAPI operation of a raw route: what no JSON RouteSpec can say (forms, redirects, XML). */
export interface RawRouteDocument {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** `none`: no credentials; `session`: the session cookie (sign-in routes) */
  security: 'none' | 'session';
  parameters?: Array<{ name: string; in: 'path' | 'query'; required: boolean; schema: Record<string, unknown>; description?: string }>;
  /** a form body (`application/x-www-form-urlencoded`) with these fields */
  form?: { schema: Record<string, unknown> };
  responses: Record<number, { description: string; contentType?: string; headers?: Record<string, string> }>;
}

/** Mounts raw routes on the app, each failure going to the app's one error mapping. */
export function mountRawRoutes(app: import('express').Express, routes: readonly RawRoute[]): void {
  for (const route of routes) {
    if (route.path.startsWith('/v1')) throw new Error(`raw route ${route.path} must be outside /v1`);
    app[route.method](route.path, (req: Request, res: Response, next: NextFunction) => {
      nameHttpRoute(route.method, route.path);
      route.handler(req, res).catch((err) => {
        if (res.headersSent) res.destroy();
        else next(err);
      });
    });
  }
}
