import { grpcService, GrpcRegistration } from '@bindery/platform/grpc';
import { idempotencyMark } from '@bindery/shared/ids';
import { contentEmbedsV1, contentPermissionsV1, contentRevisionsV1, contentV1 } from '@bindery/shared/contracts';
import type { ContentDeps } from './content-deps';
import * as collections from './collections.service';
import * as permissions from './permissions.service';
import * as spaces from './spaces.service';
import * as revisions from './revisions/revisions.service';
import { applyContentChanges } from './revisions/apply-changes.service';
import { mergeRevisions } from './revisions/merge-revisions.service';
import { diffRevisions } from './revisions/diff-revisions.service';
import { revisionChanges } from './revisions/revision-changes.service';
import { getEmbed } from './embeds/get-embed.service';
import { getReusableContent } from './revisions/reusable-content-reads';
import { getPageDocument, getPageMetaLinks } from './revisions/page-document-reads';
import { importTree } from './imports/import-tree.service';
import { cancelImport, getImport, importWebsiteAndWait, listImports, startImport } from './imports/import-runs';
import { runMessage } from '@bindery/platform/runs';

/**
 * What a site token may call: the reads of a published space's content (the space, a revision, its
 * page tree, a page by id or path with its document, a page's document and meta links, a reusable content
 * with its document, its files, what a revision changed) and the embed of a URL. visibleSpace limits them to the
 * token's spaces; links and backlinks, which name other services' objects, stay closed.
 */
export const SITE_READABLE_SPACES = ['getSpace'] as const;
export const SITE_READABLE_REVISIONS = [
  'getRevision',
  'listPages',
  'getPage',
  'getPageDocument',
  'getPageMetaLinks',
  'getReusableContent',
  'listFiles',
  'getFile',
  'getRevisionChanges',
] as const;

/** Content's gRPC services: each handler is its use case with the verified caller. */
export function contentGrpc(deps: ContentDeps): GrpcRegistration[] {
  return [
    grpcService(
      contentV1.SpacesServiceService,
      {
        createSpace: (req, { caller, idempotencyKey }) =>
          deps.idempotencyKeys.once('createSpace', idempotencyMark(caller.userId, idempotencyKey, req), contentV1.Space, () => spaces.createSpace(deps, caller, req)),
        listSpaces: (req, { caller }) => spaces.listSpaces(deps, caller, req),
        getSpace: (req, { caller }) => spaces.getSpace(deps, caller, req.spaceId),
        updateSpace: (req, { caller }) => spaces.updateSpace(deps, caller, req),
        deleteSpace: (req, { caller }) => spaces.deleteSpace(deps, caller, req.spaceId),
        restoreSpace: (req, { caller }) => spaces.restoreSpace(deps, caller, req.spaceId),
        duplicateSpace: (req, { caller, idempotencyKey }) =>
          deps.idempotencyKeys.once('duplicateSpace', idempotencyMark(caller.userId, idempotencyKey, req), contentV1.Space, () => spaces.duplicateSpace(deps, caller, req.spaceId)),
        moveSpace: (req, { caller }) => spaces.moveSpace(deps, caller, req),
        transferSpace: (req, { caller }) => spaces.transferSpace(deps, caller, req),
        listMemberSpaces: (req, { caller }) => spaces.listMemberSpaces(deps, caller, req),
        listAllSpaces: (req, { caller }) => spaces.listAllSpaces(deps, caller, req),
      },
      { siteReadable: SITE_READABLE_SPACES },
    ),
    grpcService(contentV1.CollectionsServiceService, {
      createCollection: (req, { caller, idempotencyKey }) =>
        deps.idempotencyKeys.once('createCollection', idempotencyMark(caller.userId, idempotencyKey, req), contentV1.Collection, () =>
          collections.createCollection(deps, caller, req),
        ),
      listCollections: (req, { caller }) => collections.listCollections(deps, caller, req),
      getCollection: (req, { caller }) => collections.getCollection(deps, caller, req.collectionId),
      updateCollection: (req, { caller }) => collections.updateCollection(deps, caller, req),
      deleteCollection: (req, { caller }) => collections.deleteCollection(deps, caller, req.collectionId),
      listCollectionSpaces: (req, { caller }) => collections.listCollectionSpaces(deps, caller, req),
      moveCollection: (req, { caller }) => collections.moveCollection(deps, caller, req),
      transferCollection: (req, { caller }) => collections.transferCollection(deps, caller, req),
    }),
    grpcService(contentPermissionsV1.ContentPermissionsServiceService, {
      invite: async (req, { caller }) => (await permissions.invite(deps, caller, req), {}),
      listUserGrants: (req, { caller }) => permissions.listUserGrants(deps, caller, req),
      listTeamGrants: (req, { caller }) => permissions.listTeamGrants(deps, caller, req),
      updateGrant: async (req, { caller }) => (await permissions.updateGrant(deps, caller, req), {}),
      removeGrant: (req, { caller }) => permissions.removeGrant(deps, caller, req),
      listAggregate: (req, { caller }) => permissions.listAggregate(deps, caller, req),
      effectiveRoles: (req, { caller }) => permissions.effectiveRoles(deps, caller, req),
    }),
    grpcService(
      contentRevisionsV1.RevisionsServiceService,
      {
        getRevision: (req, { caller }) => revisions.getRevision(deps, caller, req),
        listPages: (req, { caller }) => revisions.listPages(deps, caller, req),
        getPage: (req, { caller }) => revisions.getPage(deps, caller, req),
        getReusableContent: (req, { caller }) => getReusableContent(deps, caller, req),
        getPageDocument: (req, { caller }) => getPageDocument(deps, caller, req),
        getPageMetaLinks: (req, { caller }) => getPageMetaLinks(deps, caller, req),
        listFiles: (req, { caller }) => revisions.listFiles(deps, caller, req),
        getFile: (req, { caller }) => revisions.getFile(deps, caller, req),
        listFileBacklinks: (req, { caller }) => revisions.listFileBacklinks(deps, caller, req),
        listLinks: (req, { caller }) => revisions.listLinks(deps, caller, req),
        applyChanges: (req, { caller }) => applyContentChanges(deps, caller, req),
        mergeRevisions: (req, { caller }) => mergeRevisions(deps, caller, req),
        diffRevisions: (req, { caller }) => diffRevisions(deps, caller, req),
        getRevisionChanges: (req, { caller }) => revisionChanges(deps, caller, req),
        importWebsite: (req, { caller }) => importWebsiteAndWait(deps, caller, req),
        importTree: (req, { caller }) => importTree(deps, caller, req),
        startImport: async (req, { caller }) => runMessage(await startImport(deps, caller, req)),
        getImport: (req, { caller }) => getImport(deps, caller, req),
        listImports: (req, { caller }) => listImports(deps, caller, req),
        cancelImport: (req, { caller }) => cancelImport(deps, caller, req),
      },
      { siteReadable: SITE_READABLE_REVISIONS },
    ),
    grpcService(contentEmbedsV1.EmbedsServiceService, { getEmbed: (req, { caller }) => getEmbed(deps, caller, req) }, { siteReadable: ['getEmbed'] }),
  ];
}
