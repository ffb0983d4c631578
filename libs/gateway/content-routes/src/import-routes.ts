import { ID_PARAM, JsonSchema, officialResponse, RouteSpec } from '@bindery/gateway/http';
import { ContentClients, IMPORT_BUDGET_MS } from '@bindery/content/client';

/**
 * The ImportContentSource values served: of the official ones (0.130.0: website, docx, markdown,
 * html, zip, confluence, github-wiki, notion, google-docs) only `website` is imported, so only it is
 * declared; the others fail validation like any value outside the enum (docs/website-import.md).
 */
export const IMPORT_SOURCES = ['website'];

/** The URL of a website to import; whether it parses (WHATWG) as http(s) is checked by the import (a declared 400). */
export const WEBSITE_URL: JsonSchema = { type: 'string', minLength: 1, maxLength: 2048, description: 'an http or https URL' };

export const IMPORT_CONTENT: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['url', 'source'],
  properties: {
    url: WEBSITE_URL,
    source: { type: 'string', enum: IMPORT_SOURCES, description: 'What the URL holds: a website to crawl' },
  },
};

export interface ImportBody {
  url: string;
  source: string;
}

/** The website to crawl (validation let only `website` through). */
export function websiteUrlOf(body: unknown): string {
  return (body as ImportBody).url;
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
      refusals: [
        {
          status: 400,
          description:
            '`url` is not an http(s) URL, or the site could not be imported: the run failed with this reason (the address is refused, the site answers an error, nothing to import)',
        },
      ],
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
