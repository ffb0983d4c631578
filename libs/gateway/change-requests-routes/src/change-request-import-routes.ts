import { officialResponse, RouteSpec } from '@bindery/gateway/http';
import type { ChangeRequestsClients } from '@bindery/change-requests/client';
import { IMPORT_BUDGET_MS } from '@bindery/content/client';
import { IMPORT_CONTENT, websiteUrlOf } from '@bindery/gateway/content-routes';
import { CHANGE_REQUEST } from './change-request-schemas';

/** POST …/change-requests/{changeRequestId}/content/import: a website crawled into a new head of the change request (editors). */
export function changeRequestImportRoutes(crs: ChangeRequestsClients['changeRequests']): RouteSpec[] {
  return [
    {
      method: 'post',
      path: '/v1/spaces/:spaceId/change-requests/:changeRequestId/content/import',
      operationId: 'importContentInChangeRequest',
      summary: 'Import a website into the change request as one new revision of its head (editors; not merged or archived)',
      tags: ['change-requests'],
      params: CHANGE_REQUEST,
      body: IMPORT_CONTENT,
      success: { status: 201, description: 'The new head and how many resources were imported', schema: officialResponse('importContentInChangeRequest') },
      refusals: [
        {
          status: 400,
          description:
            '`url` is not an http(s) URL, or the site could not be imported: the run failed with this reason (the address is refused, the site answers an error, nothing to import)',
        },
      ],
      // the service's own import budget, and time to answer after it
      budgetMs: IMPORT_BUDGET_MS + 30_000,
      async handler({ caller, deadline, params, body }) {
        const url = websiteUrlOf(body);
        const r = await crs.importWebsite({ ref: { spaceId: params.spaceId, changeRequest: params.changeRequestId }, url }, { caller, deadline });
        return { status: 201, body: { revision: r.revision, importedResources: r.importedResources, totalResources: r.totalResources } };
      },
    },
  ];
}
