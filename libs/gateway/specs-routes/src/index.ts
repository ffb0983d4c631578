import { defineGatewayModule, RouteSpec } from '@bindery/gateway/http';
import { connectSpecs, SpecsClients } from '@bindery/specs/client';

/** Specs's routes. */
export function specsRoutes(clients: SpecsClients): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/admin/services/specs',
      operationId: 'pingSpecs',
      summary: 'Whether specs answers, and who is calling',
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
        return { body: await clients.specs.ping({}, { caller, deadline }) };
      },
    },
  ];
}

export const specsGateway = defineGatewayModule({ service: 'specs', connect: connectSpecs, routes: specsRoutes });
