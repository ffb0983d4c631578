import type { Schema } from '@bindery/platform/config';

/**
 * The setting with change-requests' gRPC address, for everything that calls it. Its default is where
 * the local stack runs change-requests (the port of apps/change-requests/service.json; a test keeps them equal).
 */
export const changeRequestsAddressSetting = {
  /** change-requests' gRPC address */
  CHANGE_REQUESTS_GRPC_URL: { kind: 'string', default: '127.0.0.1:25053' },
} satisfies Schema;
