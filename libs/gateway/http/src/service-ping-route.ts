import type { Caller } from '@bindery/platform/grpc';
import type { RouteSpec } from './route-registry';

type Ping = (req: object, call: { caller: Caller; deadline: Date }) => Promise<{ service: string; callerUserId: string }>;

/**
 * GET /admin/services/<service>: whether a service answers, and who it saw calling (every service's
 * Ping, as the service generator gives it). `operationId` is `ping<Service>`, e.g. pingGitSync.
 */
export function servicePingRoute(service: string, ping: Ping): RouteSpec {
  const pascal = service.replace(/(^|-)([a-z0-9])/g, (_, _dash, c: string) => c.toUpperCase());
  return {
    method: 'get',
    path: `/admin/services/${service}`,
    operationId: `ping${pascal}`,
    summary: `Whether ${service} answers, and who is calling`,
    tags: ['admin'],
    success: {
      status: 200,
      description: 'The service and the caller it saw',
      schema: {
        type: 'object',
        required: ['service', 'callerUserId'],
        additionalProperties: false,
        properties: { service: { type: 'string' }, callerUserId: { type: 'string' } },
      },
    },
    async handler({ caller, deadline }) {
      return { body: await ping({}, { caller, deadline }) };
    },
  };
}
