import type { Schema } from '@bindery/platform/config';

/**
 * The setting with sites' gRPC address, for everything that calls it. Its default is where the
 * local stack runs sites (the port of apps/sites/service.json).
 */
export const sitesAddressSetting = {
  /** sites' gRPC address */
  SITES_GRPC_URL: { kind: 'string', default: '127.0.0.1:25055' },
} satisfies Schema;
