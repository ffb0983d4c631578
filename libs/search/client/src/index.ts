import { ClientsOf, clientSet } from '@bindery/platform/grpc';
import { searchV1 } from '@bindery/shared/contracts';

export * from './search-address';

const SERVICES = { search: searchV1.SearchServiceService };

/** Typed clients of search's gRPC services (deadline and signed caller on each call). */
export const connectSearch = clientSet(SERVICES);
export type SearchClients = ClientsOf<typeof SERVICES>;
