import { ClientsOf, clientSet } from '@bindery/platform/grpc';
import { sitesCustomizationV1, sitesPublishedV1, sitesStructureV1, sitesV1 } from '@bindery/shared/contracts';

const SERVICES = {
  sites: sitesV1.SitesServiceService,
  shareLinks: sitesV1.ShareLinksServiceService,
  structure: sitesStructureV1.SiteStructureServiceService,
  published: sitesPublishedV1.PublishedSitesServiceService,
  customization: sitesCustomizationV1.SiteCustomizationServiceService,
};

/** Typed clients of sites's gRPC services (deadline and signed caller on each call). */
export const connectSites = clientSet(SERVICES);
export type SitesClients = ClientsOf<typeof SERVICES>;
