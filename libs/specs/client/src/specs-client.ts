import { ClientsOf, clientSet } from '@bindery/platform/grpc';
import { specsV1 } from '@bindery/shared/contracts';

const SERVICES = { specs: specsV1.OpenApiSpecsServiceService, translations: specsV1.TranslationSettingsServiceService };

/** Typed clients of specs' gRPC services (deadline and signed caller on each call). */
export const connectSpecs = clientSet(SERVICES);
export type SpecsClients = ClientsOf<typeof SERVICES>;
