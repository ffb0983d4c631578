import type { NextFunction, Request, Response } from 'express';
import { nameHttpRoute } from '@bindery/platform/telemetry';

/**
 * A route outside `/v1` that answers something other than JSON (a file's bytes): no ajv schemas,
 * not in /openapi.json, no bearer authentication — the handler authorizes the request itself (a
 * download's signed token). Failures before the first byte get the error body like every route;
 * after it, the connection is cut (a body shorter than its Content-Length tells the client).
 * Modules declare them with `rawRoutes` (gateway-module.ts); keep them few.
 */
export interface RawRoute {
  method: 'get';
  /** express syntax; must not start with /v1 */
  path: string;
  handler(req: Request, res: Response): Promise<void>;
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
