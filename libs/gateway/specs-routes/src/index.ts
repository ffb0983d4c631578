import { defineGatewayModule, RouteSpec } from '@bindery/gateway/http';
import { connectSpecs, SpecsClients } from '@bindery/specs/client';
import type { Urls } from '@bindery/gateway/identity-routes';
import { specRoutes } from './spec-routes';
import { translationRoutes } from './translation-routes';

export * from './spec-representations';

/** Specs' routes: OpenAPI specs and translation settings. */
export function specsRoutes(clients: SpecsClients, urls: Urls): RouteSpec[] {
  return [...specRoutes(clients, urls), ...translationRoutes(clients, urls)];
}

export const specsGateway = defineGatewayModule({ service: 'specs', connect: connectSpecs, routes: (clients, context) => specsRoutes(clients, context) });
