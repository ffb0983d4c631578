import { ID_PARAM, JsonSchema, LIST_QUERY, officialResponse, pageOf, RouteSpec, toList } from '@bindery/gateway/http';
import type { ContentClients } from '@bindery/content/client';
import type { Run } from '@bindery/shared/contracts';
import { WEBSITE_URL } from './import-routes';
import type { Urls } from './representations';

const RUN_PARAMS = { organizationId: ID_PARAM, importRunId: ID_PARAM };

/** startImportRun's body (0.202.0): a source and a target; only a website into a space is imported so far. */
const START_IMPORT: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['source', 'target'],
  properties: {
    source: {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'url'],
      properties: {
        type: { type: 'string', enum: ['website'], description: 'A website (the official "file" source is not imported, so not declared)' },
        url: WEBSITE_URL,
      },
    },
    target: {
      type: 'object',
      additionalProperties: false,
      required: ['space'],
      properties: {
        space: ID_PARAM,
      },
      description: 'The space to import into (the official changeRequest and page targets are not served: import into a change request with importContentInChangeRequest)',
    },
    site: { ...ID_PARAM, description: 'Accepted and ignored: runs are listed by space' },
    enhance: { type: 'boolean', description: 'Accepted and ignored: the content is not rewritten' },
  },
};

interface StartBody {
  source: { type: 'website'; url: string };
  target: { space: string };
}

/**
 * A website's address as others may see it: a user and password in it (sent as Basic credentials
 * to the site) stay with the run record and never reach a response.
 */
export function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return url;
  }
}

/** A run as the official ContentImportRun (0.202.0), with `progress` (pages fetched of pages found) besides. */
export function importRunJson(run: Run, organizationId: string, urls: Urls) {
  const input = JSON.parse(run.inputJson || '{}') as { spaceId: string; changeRequestId?: string; url: string };
  const result = run.resultJson ? (JSON.parse(run.resultJson) as { pages?: { id: string; sourceURL: string }[] }) : undefined;
  return {
    object: 'import-run' as const,
    id: run.id,
    status: run.status,
    source: { type: 'website' as const, url: withoutCredentials(input.url) },
    target: { space: input.spaceId, ...(input.changeRequestId ? { changeRequest: input.changeRequestId } : {}) },
    ...(run.createdBy ? { createdBy: run.createdBy } : {}),
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    ...(run.startedAt ? { startedAt: run.startedAt } : {}),
    ...(run.completedAt && run.status === 'completed' ? { completedAt: run.completedAt } : {}),
    ...(run.status === 'failed' && run.reason ? { reason: run.reason } : {}),
    ...(run.progress ? { progress: { pages: run.progress.done ?? 0, ...(run.progress.total !== undefined ? { total: run.progress.total } : {}) } } : {}),
    ...(result?.pages ? { pages: result.pages.map((p) => ({ id: p.id, sourceURL: withoutCredentials(p.sourceURL), type: 'page' as const, status: 'complete' as const })) } : {}),
    urls: { location: `${urls.publicUrl}/v1/org/${organizationId}/imports/${run.id}` },
  };
}

/** The import runs of an organization (0.202.0 `/org/{organizationId}/imports…`): start, list, read, cancel. */
export function importRunRoutes(revisions: ContentClients['revisions'], urls: Urls): RouteSpec[] {
  return [
    {
      method: 'post',
      path: '/v1/org/:organizationId/imports',
      operationId: 'startImportRun',
      summary: 'Start importing a website into a space (editors of the space)',
      description:
        'Starts a durable import run and answers it at once (pending); poll it with getImportRun. Only a website into a space is imported, so only that is declared: the official `source.type: "file"`, `target.changeRequest` and `target.page` fail validation (400).',
      tags: ['imports'],
      params: { organizationId: ID_PARAM },
      body: START_IMPORT,
      success: { status: 201, description: 'The import run, created', schema: officialResponse('startImportRun') },
      refusals: [{ status: 400, description: '`source.url` does not parse as an http(s) URL (the WHATWG URL parser decides, which no portable pattern states)' }],
      async handler({ caller, deadline, params, body }) {
        const b = body as StartBody;
        const url = b.source.url;
        const run = await revisions.startImport(
          { organizationId: params.organizationId, spaceId: b.target.space, url, baseRevisionId: '', updateCurrent: true, changeRequestId: '', idempotencyKey: '' },
          { caller, deadline },
        );
        return { status: 201, body: importRunJson(run, params.organizationId, urls) };
      },
    },
    {
      method: 'get',
      path: '/v1/org/:organizationId/imports',
      operationId: 'listImportRuns',
      summary: 'The import runs of the organization whose target space the caller can see, most recent first',
      tags: ['imports'],
      params: { organizationId: ID_PARAM },
      query: {
        ...LIST_QUERY,
        space: { ...ID_PARAM, description: 'Only the runs into this space' },
        changeRequest: { ...ID_PARAM, description: 'Only the runs into this change request' },
        status: { type: 'string', enum: ['active', 'pending', 'in-progress', 'completed', 'failed', 'cancelled'], description: '`active` is pending or in-progress' },
      },
      success: { status: 200, description: 'A page of import runs', schema: officialResponse('listImportRuns') },
      async handler({ caller, deadline, params, query }) {
        const r = await revisions.listImports(
          {
            organizationId: params.organizationId,
            page: pageOf(query),
            spaceId: (query.space as string) ?? '',
            changeRequestId: (query.changeRequest as string) ?? '',
            status: (query.status as string) ?? '',
          },
          { caller, deadline },
        );
        return {
          body: toList(
            r.items.map((run) => importRunJson(run, params.organizationId, urls)),
            r.page,
          ),
        };
      },
    },
    {
      method: 'get',
      path: '/v1/org/:organizationId/imports/:importRunId',
      operationId: 'getImportRun',
      summary: 'An import run: status, progress, pages once completed, reason once failed (who can see its space)',
      tags: ['imports'],
      params: RUN_PARAMS,
      success: { status: 200, description: 'The import run', schema: officialResponse('getImportRun') },
      async handler({ caller, deadline, params }) {
        const run = await revisions.getImport({ organizationId: params.organizationId, runId: params.importRunId }, { caller, deadline });
        return { body: importRunJson(run, params.organizationId, urls) };
      },
    },
    {
      method: 'post',
      path: '/v1/org/:organizationId/imports/:importRunId/cancel',
      operationId: 'cancelImportRun',
      summary: 'Cancel an import run (editors of its space): a pending run at once, a running one at its next page; the space is left unchanged',
      tags: ['imports'],
      params: RUN_PARAMS,
      success: { status: 200, description: 'The import run as it stands (cancelled, or still in progress until the crawl stops)', schema: officialResponse('cancelImportRun') },
      async handler({ caller, deadline, params }) {
        const run = await revisions.cancelImport({ organizationId: params.organizationId, runId: params.importRunId }, { caller, deadline });
        return { body: importRunJson(run, params.organizationId, urls) };
      },
    },
  ];
}
