import type { Schema } from '@bindery/platform/config';

/**
 * The setting with specs' gRPC address, for everything that calls it (the reader finds the
 * `{% openapi %}` blocks' specs there). Its default is where the local stack runs specs (the port
 * of apps/specs/service.json).
 */
export const specsAddressSetting = {
  /** specs' gRPC address */
  SPECS_GRPC_URL: { kind: 'string', default: '127.0.0.1:25057' },
} satisfies Schema;
