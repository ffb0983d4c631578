import { ClientsOf, clientSet } from '@bindery/platform/grpc';
import { specsV1 } from '@bindery/shared/contracts';

const SERVICES = { specs: specsV1.SpecsServiceService };

/** Typed clients of specs's gRPC services (deadline and signed caller on each call). */
export const connectSpecs = clientSet(SERVICES);
export type SpecsClients = ClientsOf<typeof SERVICES>;
