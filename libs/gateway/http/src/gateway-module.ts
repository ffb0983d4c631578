import type { Caller } from '@bindery/platform/grpc';
import type { RawRoute } from './raw-routes';
import type { RouteSpec } from './route-registry';

/** What every module's routes may need to know about the instance. */
export interface GatewayContext {
  /** where the API is reached: `Location` headers and `urls.location` */
  publicUrl: string;
  /** where the web app is reached: `urls.app` */
  appUrl: string;
  /**
   * The connected clients of another service's module (by its `service` name), for routes that
   * combine services' answers, e.g. user profiles from identity next to content's grants. Every
   * module is connected before any module's routes are built; an unknown service throws.
   */
  clientsOf<C>(service: string): C;
}

/**
 * A service's part of the gateway: how to reach it and which routes it serves. The gateway mounts
 * every module listed in its generated module list; adding a service adds one module.
 */
export interface GatewayModule<C extends { close(): void }> {
  /** the service these routes call; its address comes from `<NAME>_GRPC_URL` */
  service: string;
  connect(address: string, defaultDeadlineMs: number): C;
  routes(clients: C, context: GatewayContext): RouteSpec[];
  /** non-JSON routes outside /v1 (raw-routes.ts), e.g. content's file downloads */
  rawRoutes?(clients: C, context: GatewayContext): RawRoute[];
  /** the one module that turns API tokens into callers */
  authenticator?(clients: C): (token: string) => Promise<Caller>;
  /** the one module that turns site tokens (SITE_TOKEN_PREFIX) into site callers */
  siteTokenAuthenticator?(clients: C): (token: string) => Promise<Caller>;
  /** the one module that turns browser sessions (the session cookie's secret) into callers */
  sessionAuthenticator?(clients: C): (secret: string) => Promise<Caller>;
}

/** Types a module from its `connect` (the clients its routes get). */
export function defineGatewayModule<C extends { close(): void }>(module: {
  service: string;
  connect(address: string, defaultDeadlineMs: number): C;
  routes(clients: NoInfer<C>, context: GatewayContext): RouteSpec[];
  rawRoutes?(clients: NoInfer<C>, context: GatewayContext): RawRoute[];
  authenticator?(clients: NoInfer<C>): (token: string) => Promise<Caller>;
  siteTokenAuthenticator?(clients: NoInfer<C>): (token: string) => Promise<Caller>;
  sessionAuthenticator?(clients: NoInfer<C>): (secret: string) => Promise<Caller>;
}): GatewayModule<C> {
  return module;
}
