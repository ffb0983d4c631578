import type { Schema } from '@bindery/platform/config';

/**
 * The setting with identity's gRPC address, for everything that calls identity. Its default is
 * where the local stack runs identity (the port of apps/identity/service.json; a test keeps them equal).
 */
export const identityAddressSetting = {
  /** identity's gRPC address */
  IDENTITY_GRPC_URL: { kind: 'string', default: '127.0.0.1:25051' },
} satisfies Schema;
