import type { Schema } from '@bindery/platform/config';

/**
 * The setting with search's gRPC address, for every service that calls search. Its default is
 * where the local stack runs search (the port of apps/search/service.json; a test keeps them equal).
 */
export const searchAddressSetting = {
  /** search's gRPC address */
  SEARCH_GRPC_URL: { kind: 'string', default: '127.0.0.1:25054' },
} satisfies Schema;
