import type { Schema } from '@bindery/platform/config';

/**
 * The setting with content's gRPC address, for every service that calls content. Its default is
 * where the local stack runs content (the port of apps/content/service.json; a test keeps them equal).
 */
export const contentAddressSetting = {
  /** content's gRPC address */
  CONTENT_GRPC_URL: { kind: 'string', default: '127.0.0.1:25052' },
} satisfies Schema;
