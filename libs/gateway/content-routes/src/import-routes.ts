import { ID_PARAM, JsonSchema, officialResponse, RouteSpec } from '@bindery/gateway/http';
import { ContentClients, IMPORT_BUDGET_MS } from '@bindery/content/client';
import { invalid } from '@bindery/platform/errors';

/** The official ImportContentSource values (0.130.0); only `website` is imported so far. */
export const IMPORT_SOURCES = ['website', 'docx', 'markdown', 'html', 'zip', 'confluence', 'github-wiki', 'notion', 'google-docs'];

export const IMPORT_CONTENT: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['url', 'source'],
  properties: {
    url: { type: 'string', minLength: 1, maxLength: 2048, description: 'URL of the content to import' },
    source: { type: 'string', enum: IMPORT_SOURCES, description: 'What the URL holds; only "website" is supported yet' },
  },
};

export interface ImportBody {
  url: string;
  source: string;
}

/** Refuses the sources not imported yet with a 400 that says so. */
export function websiteUrlOf(body: unknown): string {
  const b = body as ImportBody;
  if (b.source !== 'website') throw invalid(`Importing from source "${b.source}" is not supported yet; only "website" is.`);
  return b.url;
}

/** POST /v1/spaces/{spaceId}/content/import: a website crawled into the space's current revision (editors; not a locked space). */
export function importRoutes(revisions: ContentClients['revisions']): RouteSpec[] {
  return [
    {
      method: 'post',
      path: '/v1/spaces/:spaceId/content/import',
      operationId: 'importContent',
      summary: 'Import a website into the space as one new revision (editors; a locked space refuses it)',
      tags: ['content'],
      params: { spaceId: ID_PARAM },
      body: IMPORT_CONTENT,
      success: { status: 201, description: 'The revision created and how many resources were imported', schema: officialResponse('importContent') },
      budgetMs: IMPORT_BUDGET_MS,
      async handler({ caller, deadline, params, body }) {
        const url = websiteUrlOf(body);
        const r = await revisions.importWebsite(
          { spaceId: params.spaceId, url, baseRevisionId: '', updateCurrent: true, changeRequestId: '', idempotencyKey: '', organizationId: '' },
          { caller, deadline },
        );
        return { status: 201, body: { revision: r.revisionId, importedResources: r.importedResources, totalResources: r.totalResources } };
      },
    },
  ];
}
