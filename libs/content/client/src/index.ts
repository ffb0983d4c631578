import { ClientsOf, clientSet } from '@bindery/platform/grpc';
import { contentEmbedsV1, contentPermissionsV1, contentRevisionsV1, contentV1 } from '@bindery/shared/contracts';

export * from './content-events';
export * from './content-address';

const SERVICES = {
  spaces: contentV1.SpacesServiceService,
  collections: contentV1.CollectionsServiceService,
  permissions: contentPermissionsV1.ContentPermissionsServiceService,
  revisions: contentRevisionsV1.RevisionsServiceService,
  embeds: contentEmbedsV1.EmbedsServiceService,
};

/** Typed clients of content's gRPC services (deadline and signed caller on each call). */
export const connectContent = clientSet(SERVICES);
export type ContentClients = ClientsOf<typeof SERVICES>;
export * from './file-downloads';
export * from './import-budget';
export * from './file-uploads';
export * from './revision-shapes';
