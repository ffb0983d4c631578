import express, { NextFunction, Request, Response } from 'express';
import { errorBody, forbidden, httpStatusOf, isDomainError } from '@bindery/platform/errors';
import { logger, nameHttpRoute } from '@bindery/platform/telemetry';
import { Caller, SITE_TOKEN_REFUSAL, withCallBudget } from '@bindery/platform/grpc';
import { compileValidators, validateRequest } from './request-validation';
import { buildOpenApiDocument } from './openapi-document';
import { RouteRegistry } from './route-registry';
import { idempotencyKeyOf } from './idempotency-key';
import { mountRawRoutes, RawRoute } from './raw-routes';
import { cookieRequestAllowed, CSRF_REFUSAL, sessionCookieOf } from './session-cookie';

export interface GatewayOptions {
  registry: RouteRegistry;
  authenticate(authorization: string | undefined): Promise<Caller>;
  /** resolves the session cookie's secret (session-cookie.ts); without it the cookie is ignored */
  authenticateSession?(secret: string): Promise<Caller>;
  /** dependency checks for /readyz, by name */
  readiness: Record<string, () => Promise<boolean>>;
  publicUrl: string;
  requestBudgetMs: number;
  bodyLimit: string;
  /** non-JSON routes outside /v1 (file downloads), from the modules' `rawRoutes` */
  rawRoutes?: RawRoute[];
}

function sendError(res: Response, status: number, message: string) {
  if (!res.headersSent) res.status(status).json(errorBody(status, message));
}

/**
 * When a refused request may be sent again (429): the seconds a service named in its message
 * ("retry after N s"), else 1.
 */
export function retryAfterOf(message: string): string {
  return /retry after (\d+) s/i.exec(message)?.[1] ?? '1';
}

/**
 * The HTTP edge: authentication, JSON parsing, strict validation, routes, and one error mapping.
 * A route that needs a user authenticates before its body is read: without a valid token the
 * answer is 401 whatever the body is (malformed, oversized or invalid), and no body is parsed for
 * an anonymous caller. Public routes (`auth: 'none'`) parse and validate as usual; so do routes with
 * `auth: 'optional'` called without a token or session cookie (with one, it is checked first). A site token's
 * caller is refused 403, also before its body is read, by every route not declared `siteToken`.
 */
export function createGatewayApp(options: GatewayOptions) {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  const parseJson = express.json({ limit: options.bodyLimit, strict: false, type: ['application/json', 'application/*+json'] });

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const entries = await Promise.all(Object.entries(options.readiness).map(async ([name, check]) => [name, await check().catch(() => false)] as const));
    const ready = entries.every(([, ok]) => ok);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', checks: Object.fromEntries(entries) });
  });
  const document = buildOpenApiDocument(options.registry, options.publicUrl, options.rawRoutes ?? []);
  app.get('/openapi.json', (_req, res) => {
    res.json(document);
  });

  mountRawRoutes(app, options.rawRoutes ?? []);

  for (const route of options.registry.routes) {
    const validators = compileValidators(route);
    const authenticate = (req: Request, res: Response, next: NextFunction) => {
      nameHttpRoute(route.method, route.path);
      if (route.auth === 'none') return next();
      // A bearer token wins; without one, the session cookie (state changes only from this origin).
      const session = req.headers.authorization === undefined && options.authenticateSession ? sessionCookieOf(req.headers.cookie) : undefined;
      if (route.auth === 'optional' && req.headers.authorization === undefined && session === undefined) return next();
      if (session !== undefined && !cookieRequestAllowed(req.method, req.headers, options.publicUrl)) return next(forbidden(CSRF_REFUSAL));
      const resolved = session !== undefined ? options.authenticateSession!(session) : options.authenticate(req.headers.authorization);
      resolved.then((caller) => {
        if (caller.site && !route.siteToken) return next(forbidden(SITE_TOKEN_REFUSAL));
        res.locals.caller = caller;
        next();
      }, next);
    };
    app[route.method](route.path, authenticate, parseJson, async (req: Request, res: Response, next: NextFunction) => {
      try {
        const caller = res.locals.caller as Caller;
        const query = { ...(req.query as Record<string, unknown>) };
        // A wildcard parameter (`*pagePath`) arrives as its segments; routes see it as the path it was.
        const params = Object.fromEntries(Object.entries(req.params as Record<string, string | string[]>).map(([k, v]) => [k, Array.isArray(v) ? v.join('/') : v]));
        const hasBody = (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0') || req.headers['transfer-encoding'] !== undefined;
        validateRequest(validators, { params, query, body: req.body, hasBody: hasBody && req.is('application/json') !== false });
        // The request's budget is the root of every deadline below it: calls the handler makes are
        // bounded by it even when they do not pass it (call-budget.ts).
        const deadline = new Date(Date.now() + (route.budgetMs ?? options.requestBudgetMs));
        const idempotencyKey = route.idempotent ? idempotencyKeyOf(req.headers['idempotency-key']) : undefined;
        const result = await withCallBudget(deadline, () => route.handler({ caller, deadline, params, query, body: req.body, ...(idempotencyKey ? { idempotencyKey } : {}) }));
        for (const [k, v] of Object.entries(result.headers ?? {})) res.setHeader(k, v);
        const status = result.status ?? route.success.status;
        if (result.body === undefined) res.status(status).end();
        else res.status(status).json(result.body);
      } catch (err) {
        next(err);
      }
    });
  }

  // A path that is served, with a method it is not served with: 405 and the methods it takes (RFC 9110).
  const methodsByPath = new Map<string, Set<string>>();
  for (const route of options.registry.routes) {
    const methods = methodsByPath.get(route.path) ?? new Set<string>(['OPTIONS']);
    methods.add(route.method.toUpperCase());
    if (route.method === 'get') methods.add('HEAD');
    methodsByPath.set(route.path, methods);
  }
  for (const [path, methods] of methodsByPath) {
    const allow = [...methods].sort().join(', ');
    app.all(path, (req: Request, res: Response) => {
      res.setHeader('Allow', allow);
      if (req.method === 'OPTIONS') res.status(204).end();
      else sendError(res, 405, `${req.method} is not served on ${req.path}; allowed: ${allow}.`);
    });
  }

  app.use((req: Request, res: Response) => {
    sendError(res, 404, `No route for ${req.method} ${req.path}.`);
  });

  // One mapping from every failure to the error body.
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (isDomainError(err)) {
      const status = httpStatusOf(err.kind);
      if (status >= 500) logger.warn('request failed', { method: req.method, path: req.route?.path, status, reason: err.message });
      if (status === 429 && !res.headersSent) res.setHeader('Retry-After', retryAfterOf(err.message));
      return sendError(res, status, err.message);
    }
    const type = (err as { type?: string }).type;
    if (type === 'entity.parse.failed') return sendError(res, 400, 'The request body is not valid JSON.');
    if (type === 'entity.too.large') return sendError(res, 413, `The request body is larger than ${options.bodyLimit}.`);
    if (type === 'encoding.unsupported' || type === 'charset.unsupported') return sendError(res, 415, 'Unsupported content encoding or charset.');
    const status = (err as { status?: number }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) return sendError(res, status, 'The request could not be read.');
    logger.error('unhandled error in gateway', { method: req.method, path: req.route?.path, error: err instanceof Error ? err.stack : String(err) });
    return sendError(res, 500, 'Internal error.');
  });

  return app;
}

/**
 * Requests Node's HTTP parser refuses before express sees them (a request line or headers over the
 * size limit, malformed HTTP) get the error body too.
 */
export function answerClientErrors(server: import('node:http').Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: import('node:stream').Duplex) => {
    if (!socket.writable) return socket.destroy();
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const message = status === 431 ? 'The request line or headers are too large.' : 'The request is not valid HTTP.';
    const body = JSON.stringify(errorBody(status, message));
    const reason = status === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
}
