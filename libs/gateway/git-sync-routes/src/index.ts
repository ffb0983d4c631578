import { defineGatewayModule, RouteSpec } from '@bindery/gateway/http';
import { connectGitSync, GitSyncClients } from '@bindery/git-sync/client';

/** GitSync's routes. */
export function gitSyncRoutes(clients: GitSyncClients): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/admin/services/git-sync',
      operationId: 'pingGitSync',
      summary: 'Whether git-sync answers, and who is calling',
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
        return { body: await clients.gitSync.ping({}, { caller, deadline }) };
      },
    },
  ];
}

export const gitSyncGateway = defineGatewayModule({ service: 'git-sync', connect: connectGitSync, routes: gitSyncRoutes });
