import { grpcService, GrpcRegistration } from '@bindery/platform/grpc';
import { sitesCustomizationV1, sitesV1 as pb } from '@bindery/shared/contracts';
import * as adaptive from './adaptive-schema.service';
import * as customization from './customization.service';
import { createSite } from './site-creation.service';
import * as sites from './sites.service';
import * as shareLinks from './share-links.service';
import type { CustomizationObject } from '@bindery/sites/domain';
import type { SitesDeps } from './sites-deps';
import { pageInfo, shareLinkMessage } from './site-messages';

/** Sites' own services (proto ⇄ domain at this edge, one use case each): sites, their settings and adaptive schema, publishing, share links, customization. */
export function sitesGrpc(deps: SitesDeps): GrpcRegistration[] {
  return [
    grpcService(pb.SitesServiceService, {
      ping: async (_req, { caller }) => ({ service: 'sites', callerUserId: caller.userId }),
      listSites: (req, { caller }) => sites.listSites(deps, caller, req),
      createSite: (req, { caller }) => createSite(deps, caller, req),
      getSite: (req, { caller }) => sites.getSite(deps, caller, req),
      updateSite: (req, { caller }) => sites.updateSite(deps, caller, req),
      deleteSite: (req, { caller }) => sites.deleteSite(deps, caller, req),
      publishSite: (req, { caller }) => sites.publishSite(deps, caller, req),
      unpublishSite: (req, { caller }) => sites.unpublishSite(deps, caller, req),
      getAdaptiveSchema: (req, { caller }) => adaptive.getAdaptiveSchema(deps, caller, req.organizationId, req.siteId),
      updateAdaptiveSchema: (req, { caller }) => adaptive.updateAdaptiveSchema(deps, caller, req.organizationId, req.siteId, req.jsonSchema),
      listTemplateConditions: async (req, { caller }) => ({ items: await adaptive.listTemplateConditions(deps, caller, req.organizationId, req.siteId) }),
    }),
    grpcService(pb.ShareLinksServiceService, {
      listShareLinks: async (req, { caller }) => {
        const page = await shareLinks.listShareLinks(deps, caller, req.organizationId, req.siteId, req.page);
        return { items: page.items.map(shareLinkMessage), page: pageInfo(page) };
      },
      createShareLink: async (req, { caller }) => shareLinkMessage(await shareLinks.createShareLink(deps, caller, req.organizationId, req.siteId, req.name)),
      updateShareLink: async (req, { caller }) =>
        shareLinkMessage(
          await shareLinks.updateShareLink(deps, caller, req, {
            ...(req.name !== undefined ? { name: req.name } : {}),
            ...(req.active !== undefined ? { active: req.active } : {}),
          }),
        ),
      deleteShareLink: async (req, { caller }) => ({ deleted: await shareLinks.deleteShareLink(deps, caller, req) }),
    }),
    grpcService(sitesCustomizationV1.SiteCustomizationServiceService, {
      // the SiteCustomization message is the view's shape: settings (a Struct) and when they changed
      getSiteCustomization: (req, { caller }) => customization.getSiteCustomization(deps, caller, req.organizationId, req.siteId),
      updateSiteCustomization: (req, { caller }) =>
        customization.updateSiteCustomization(deps, caller, req.organizationId, req.siteId, req.settings as CustomizationObject | undefined),
      getSiteSpaceCustomization: (req, { caller }) => customization.getSiteSpaceCustomization(deps, caller, req),
      overrideSiteSpaceCustomization: (req, { caller }) => customization.overrideSiteSpaceCustomization(deps, caller, req, req.overrides as CustomizationObject | undefined),
      deleteSiteSpaceCustomization: async (req, { caller }) => ({ deleted: await customization.deleteSiteSpaceCustomization(deps, caller, req) }),
    }),
  ];
}
