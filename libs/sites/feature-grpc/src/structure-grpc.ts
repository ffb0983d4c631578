import { grpcService, GrpcRegistration } from '@bindery/platform/grpc';
import { sitesStructureV1 as pb } from '@bindery/shared/contracts';
import * as groups from './section-groups.service';
import * as sections from './sections.service';
import * as siteSpaces from './site-spaces.service';
import * as structure from './structure.service';
import type { SitesDeps } from './sites-deps';

/** The site structure's RPCs: each translates its request for one use case. */
export function structureGrpc(deps: SitesDeps): GrpcRegistration {
  return grpcService(
    pb.SiteStructureServiceService,
    {
      listSections: (req, { caller }) => sections.listSections(deps, caller, req),
      createSection: (req, { caller }) => sections.createSection(deps, caller, req),
      updateSection: (req, { caller }) => sections.updateSection(deps, caller, req),
      deleteSection: (req, { caller }) => sections.deleteSection(deps, caller, req),
      moveSection: (req, { caller }) => sections.moveSection(deps, caller, req),
      listSectionGroups: (req, { caller }) => groups.listSectionGroups(deps, caller, req),
      createSectionGroup: (req, { caller }) => groups.createSectionGroup(deps, caller, req),
      updateSectionGroup: (req, { caller }) => groups.updateSectionGroup(deps, caller, req),
      deleteSectionGroup: (req, { caller }) => groups.deleteSectionGroup(deps, caller, req),
      moveSectionGroup: (req, { caller }) => groups.moveSectionGroup(deps, caller, req),
      addSectionToGroup: (req, { caller }) => groups.addSectionToGroup(deps, caller, req),
      removeSectionFromGroup: (req, { caller }) => groups.removeSectionFromGroup(deps, caller, req),
      listSiteSpaces: (req, { caller }) => siteSpaces.listSiteSpaces(deps, caller, req),
      addSiteSpace: (req, { caller }) => siteSpaces.addSiteSpace(deps, caller, req),
      updateSiteSpace: (req, { caller }) => siteSpaces.updateSiteSpace(deps, caller, req),
      deleteSiteSpace: (req, { caller }) => siteSpaces.deleteSiteSpace(deps, caller, req),
      moveSiteSpace: (req, { caller }) => siteSpaces.moveSiteSpace(deps, caller, req),
      getStructure: (req, { caller }) => structure.getStructure(deps, caller, req),
      sortStructure: (req, { caller }) => structure.sortStructure(deps, caller, req),
      getPublishedSite: (req, { caller }) => structure.getPublishedSite(deps, caller, req),
    },
    // a site token reads its own published site (the renderer's getPublishedContentSite)
    { siteReadable: ['getPublishedSite'] },
  );
}
