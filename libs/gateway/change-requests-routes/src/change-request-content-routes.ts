import { ID_PARAM, officialResponse, RouteSpec } from '@bindery/gateway/http';
import { PATH_PARAM, revisionReadBuilders, RevisionOf } from '@bindery/gateway/content-routes';
import type { Urls } from '@bindery/gateway/identity-routes';
import type { ChangeRequestsClients } from '@bindery/change-requests/client';
import type { ContentClients } from '@bindery/content/client';
import type { IdentityClients } from '@bindery/identity/client';
import { changeRequestReader } from '@bindery/gateway/change-request-json';
import { CHANGE_REQUEST } from './change-request-schemas';

/**
 * The reads of a change request's content (its head revision), the same as the space's content
 * reads: the change request is looked up first (readers of the space; 404 otherwise).
 */
export function changeRequestContentRoutes(
  crs: ChangeRequestsClients['changeRequests'],
  revisions: ContentClients['revisions'],
  identity: IdentityClients,
  urls: Urls,
): RouteSpec[] {
  const headOf: RevisionOf = async (p, call) => (await crs.getChangeRequest({ spaceId: p.spaceId, changeRequest: p.changeRequestId }, call)).revision;
  const b = revisionReadBuilders(revisions, identity, urls, changeRequestReader(crs, identity.identity, urls), headOf);
  return [
    b.revisionRoute(
      '/v1/spaces/:spaceId/change-requests/:changeRequestId/content',
      'getRevisionOfChangeRequestById',
      officialResponse('getRevisionOfChangeRequestById'),
      CHANGE_REQUEST,
      "The change request's head revision (readers)",
    ),
    b.pagesRoute('/v1/spaces/:spaceId/change-requests/:changeRequestId/content/pages', 'listPagesInChangeRequest', officialResponse('listPagesInChangeRequest'), CHANGE_REQUEST),
    b.filesRoute(
      '/v1/spaces/:spaceId/change-requests/:changeRequestId/content/files',
      'listFilesInChangeRequestById',
      officialResponse('listFilesInChangeRequestById'),
      CHANGE_REQUEST,
    ),
    b.fileRoute('/v1/spaces/:spaceId/change-requests/:changeRequestId/content/files/:fileId', 'getFileInChangeRequestById', officialResponse('getFileInChangeRequestById'), {
      ...CHANGE_REQUEST,
      fileId: ID_PARAM,
    }),
    b.backlinksRoute(
      '/v1/spaces/:spaceId/change-requests/:changeRequestId/content/files/:fileId/backlinks',
      'listChangeRequestFileBacklinks',
      officialResponse('listChangeRequestFileBacklinks'),
      {
        ...CHANGE_REQUEST,
        fileId: ID_PARAM,
      },
    ),
    b.pageRoute(
      '/v1/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId',
      'getPageInChangeRequestById',
      officialResponse('getPageInChangeRequestById'),
      { ...CHANGE_REQUEST, pageId: ID_PARAM },
      'id',
    ),
    b.linksRoute(
      '/v1/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId/links',
      'listPageLinksInChangeRequest',
      officialResponse('listPageLinksInChangeRequest'),
      { ...CHANGE_REQUEST, pageId: ID_PARAM },
      "The links of one page of the change request's head (readers)",
    ),
    b.pageRoute(
      '/v1/spaces/:spaceId/change-requests/:changeRequestId/content/path/*pagePath',
      'getPageInChangeRequestByPath',
      officialResponse('getPageInChangeRequestByPath'),
      { ...CHANGE_REQUEST, pagePath: PATH_PARAM },
      'path',
    ),
    b.reusableContentRoute(
      '/v1/spaces/:spaceId/change-requests/:changeRequestId/content/reusable-contents/:reusableContentId',
      'getReusableContentInChangeRequestById',
      officialResponse('getReusableContentInChangeRequestById'),
      { ...CHANGE_REQUEST, reusableContentId: ID_PARAM },
      'content',
    ),
    b.metaLinksRoute(
      '/v1/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId/meta-links',
      'listChangeRequestPageMetaLinks',
      officialResponse('listChangeRequestPageMetaLinks'),
      { ...CHANGE_REQUEST, pageId: ID_PARAM },
    ),
  ];
}
