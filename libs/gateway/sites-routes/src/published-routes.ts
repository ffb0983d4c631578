import { ID_PARAM, JsonSchema, LIST_QUERY, officialResponse, pageOf, RouteSpec, toList, trimmedText } from '@bindery/gateway/http';
import type { Urls } from '@bindery/gateway/identity-routes';
import { spaceResultJson } from '@bindery/gateway/search-routes';
import { sitesPublishedV1 as pb } from '@bindery/shared/contracts';
import type { SitesClients } from '@bindery/sites/client';

/** The official SiteRedirectSourcePath. */
const SOURCE: JsonSchema = {
  type: 'string',
  maxLength: 512,
  pattern: '^\\/(?!\\*)(?!.*\\*.+)(?:[A-Za-z0-9\\-._~+]|%[0-9A-Fa-f]{2})+(?:\\/(?:[A-Za-z0-9\\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\\/\\*|\\*)?$',
  description: 'A path of the site (`/guides/setup`), optionally ending in `*` or `/*` (a wildcard)',
};

const kind = (name: string, required: string[], properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required: ['kind', ...required],
  properties: { kind: { type: 'string', enum: [name] }, ...properties },
});

/** The official destinations (SiteRedirectDestination); on create also a page by its space and path (SiteRedirectInputDestinationPath). */
function destination(withPath: boolean): JsonSchema {
  const kinds = ['site-section', 'site-space', 'site-page', 'external', ...(withPath ? ['path'] : [])];
  return {
    type: 'object',
    required: ['kind'],
    properties: { kind: { type: 'string', enum: kinds } },
    discriminator: { propertyName: 'kind' },
    oneOf: [
      kind('site-section', ['siteSectionId'], { siteSectionId: ID_PARAM }),
      kind('site-space', ['siteSpaceId'], { siteSpaceId: ID_PARAM }),
      kind('site-page', ['siteSpaceId', 'pageId'], { siteSpaceId: ID_PARAM, pageId: ID_PARAM }),
      kind('external', ['url'], { url: { type: 'string', format: 'uri', maxLength: 2048, pattern: '^[Hh][Tt][Tt][Pp][Ss]?://', description: 'An http or https URL' } }),
      ...(withPath
        ? [
            kind('path', ['spaceId', 'path'], {
              spaceId: ID_PARAM,
              path: { type: 'string', maxLength: 2048, description: 'The path of a page in that space (stored as the page of its site space)' },
            }),
          ]
        : []),
    ],
  };
}

const FLAGS: Record<string, JsonSchema> = {
  captureWildcard: { type: 'boolean', description: 'Append what the wildcard matched to the destination URL' },
  draft: { type: 'boolean', description: 'A draft redirect is not live: lookups by source do not see it' },
  permanent: { type: 'boolean', description: 'Whether the redirect is permanent for public live traffic' },
};

const SITE_PARAMS = { organizationId: ID_PARAM, siteId: ID_PARAM };
const REDIRECT_PARAMS = { ...SITE_PARAMS, siteRedirectId: ID_PARAM };
const REFUSED_DESTINATION = {
  status: 400 as const,
  description: 'The destination names no section, site space or page of this site (a page must be one you can read), or `orderBy`/`page` is not one the list takes',
};

/** The official destination: its kind and the fields set for it. */
function destinationJson(d: pb.RedirectDestination | undefined) {
  return Object.fromEntries(Object.entries(d ?? {}).filter(([, v]) => v !== undefined));
}

/** A request's destination (validated against the official shapes) as the message. */
function destinationMessage(d: DestinationBody): pb.RedirectDestination {
  return { kind: d.kind, siteSectionId: d.siteSectionId, siteSpaceId: d.siteSpaceId, pageId: d.pageId, url: d.url, spaceId: d.spaceId, path: d.path };
}
type DestinationBody = pb.RedirectDestination;

/** The official SiteRedirect. */
export function redirectJson(r: pb.SiteRedirect) {
  return {
    object: 'site-redirect',
    id: r.id,
    source: r.source,
    draft: r.draft,
    captureWildcard: r.captureWildcard,
    permanent: r.permanent,
    destination: destinationJson(r.destination),
    createdAt: r.createdAt,
    ...(r.updatedAt ? { updatedAt: r.updatedAt } : {}),
  };
}

const ID_LIST: JsonSchema = { type: 'array', minItems: 1, maxItems: 1000, items: ID_PARAM };
const QUERY = { ...trimmedText(1, 512), description: 'What to look for (not only white space)' };
const object = (required: string[], properties: Record<string, JsonSchema>): JsonSchema => ({ type: 'object', additionalProperties: false, required, properties });

/** The official SiteSearchScope. */
const SCOPE: JsonSchema = {
  type: 'object',
  required: ['mode'],
  properties: { mode: { type: 'string', enum: ['default', 'specific', 'all'] } },
  discriminator: { propertyName: 'mode' },
  oneOf: [
    {
      ...object(['mode'], {
        mode: { type: 'string', enum: ['default'], description: "Each section's default content, includedSiteSpaces and currentSiteSpace" },
        includedSiteSpaces: { type: 'array', maxItems: 1000, items: ID_PARAM },
        currentSiteSpace: { ...ID_PARAM, description: "The visitor's site space, always searched (0.202.0)" },
        restrictTo: {
          type: 'string',
          enum: ['currentSiteSpace', 'otherSiteSpaces'],
          description: 'With currentSiteSpace (0.202.0): only the current site space, or the default scope without it',
        },
      }),
      // restrictTo needs currentSiteSpace (0.202.0's second form of the default scope)
      if: { properties: { restrictTo: { type: 'string' } }, required: ['restrictTo'] },
      then: { properties: { currentSiteSpace: { type: 'string' } }, required: ['currentSiteSpace'] },
    },
    object(['mode', 'siteSpaceIds'], { mode: { type: 'string', enum: ['specific'], description: 'Only these site spaces' }, siteSpaceIds: ID_LIST }),
    object(['mode'], { mode: { type: 'string', enum: ['all'], description: 'Every site space' } }),
  ],
};

/** searchSiteContent's body: the query with a scope, or one of the deprecated `mode` forms. */
const SEARCH_BODY: JsonSchema = {
  type: 'object',
  oneOf: [
    object(['query', 'scope'], { query: QUERY, scope: SCOPE }),
    object(['query', 'siteSpaceIds'], { query: QUERY, mode: { type: 'string', enum: ['specific'], deprecated: true }, siteSpaceIds: ID_LIST }),
    object(['query', 'mode', 'siteSpaceId'], { query: QUERY, mode: { type: 'string', enum: ['current'], deprecated: true }, siteSpaceId: ID_PARAM }),
    object(['query', 'mode'], { query: QUERY, mode: { type: 'string', enum: ['all'], deprecated: true } }),
  ],
};

type ScopeJson = { mode: string; includedSiteSpaces?: string[]; siteSpaceIds?: string[]; currentSiteSpace?: string; restrictTo?: string };
type SearchBody = { query: string; scope?: ScopeJson; mode?: 'specific' | 'current' | 'all'; siteSpaceIds?: string[]; siteSpaceId?: string };

/** The scope the body asks for, as the message sites takes (the deprecated forms mapped onto it). */
function scopeOf(b: SearchBody): pb.SiteSearchScope {
  const none = { includedSiteSpaces: [], siteSpaceIds: [], restrictTo: '' };
  if (b.scope) {
    const { mode, includedSiteSpaces = [], siteSpaceIds = [], currentSiteSpace, restrictTo = '' } = b.scope;
    return { mode, includedSiteSpaces, siteSpaceIds, restrictTo, ...(currentSiteSpace ? { currentSiteSpace } : {}) };
  }
  if (b.siteSpaceIds) return { ...none, mode: 'specific', siteSpaceIds: b.siteSpaceIds };
  if (b.mode === 'current') return { ...none, mode: 'current', siteSpaceId: b.siteSpaceId };
  return { ...none, mode: 'all' };
}

/** The routes of sites' published view: redirects (0.202.0) and a site's search. */
export function publishedRoutes(clients: SitesClients, urls: Urls): RouteSpec[] {
  const published = clients.published;
  const site = (params: Record<string, string>) => ({ organizationId: params.organizationId, siteId: params.siteId });
  return [
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/sites/:siteId/redirects',
      operationId: 'listSiteRedirects',
      summary: "The site's live (or draft) redirects: newest first, last updated first, or by source (members who may view the site)",
      tags: ['site-redirects'],
      params: SITE_PARAMS,
      query: {
        ...LIST_QUERY,
        search: { type: 'string', maxLength: 512, description: 'Only redirects whose source contains this text (case-insensitive)' },
        draft: { type: 'boolean', default: false, description: 'Draft redirects instead of live ones' },
        orderBy: { type: 'string', enum: ['createdAt', 'updatedAt', 'source'], default: 'createdAt', description: 'createdAt and updatedAt: newest first; source: A to Z' },
      },
      success: { status: 200, description: 'A page of redirects', schema: officialResponse('listSiteRedirects') },
      async handler({ caller, deadline, params, query }) {
        const r = await published.listRedirects(
          {
            ...site(params),
            page: pageOf(query),
            search: query.search as string | undefined,
            draft: query.draft as boolean | undefined,
            orderBy: query.orderBy as string | undefined,
          },
          { caller, deadline },
        );
        return { body: toList(r.items.map(redirectJson), r.page) };
      },
    },
    {
      method: 'post',
      path: '/v1/orgs/:organizationId/sites/:siteId/redirects',
      operationId: 'createSiteRedirect',
      summary: 'Create a redirect (the edit role); its source is unique among the live (or the draft) redirects of the site: 409 otherwise',
      tags: ['site-redirects'],
      params: SITE_PARAMS,
      body: { type: 'object', additionalProperties: false, required: ['source', 'destination'], properties: { source: SOURCE, destination: destination(true), ...FLAGS } },
      success: { status: 201, description: 'The redirect', schema: officialResponse('createSiteRedirect') },
      refusals: [REFUSED_DESTINATION],
      async handler({ caller, deadline, params, body }) {
        const b = body as { source: string; destination: DestinationBody; captureWildcard?: boolean; draft?: boolean; permanent?: boolean };
        const r = await published.createRedirect(
          {
            ...site(params),
            source: b.source,
            destination: destinationMessage(b.destination),
            captureWildcard: b.captureWildcard ?? false,
            draft: b.draft ?? false,
            permanent: b.permanent ?? false,
          },
          { caller, deadline },
        );
        return { body: redirectJson(r) };
      },
    },
    {
      method: 'patch',
      path: '/v1/orgs/:organizationId/sites/:siteId/redirects/:siteRedirectId',
      operationId: 'updateSiteRedirectById',
      summary: 'Change a redirect (the edit role); `draft: false` promotes a draft (409 when a live redirect has its source)',
      tags: ['site-redirects'],
      params: REDIRECT_PARAMS,
      body: { type: 'object', additionalProperties: false, properties: { source: SOURCE, destination: destination(false), ...FLAGS } },
      success: { status: 200, description: 'The redirect', schema: officialResponse('updateSiteRedirectById') },
      refusals: [REFUSED_DESTINATION],
      async handler({ caller, deadline, params, body }) {
        const b = body as { source?: string; destination?: DestinationBody; captureWildcard?: boolean; draft?: boolean; permanent?: boolean };
        const r = await published.updateRedirect(
          {
            ...site(params),
            redirectId: params.siteRedirectId,
            source: b.source,
            destination: b.destination === undefined ? undefined : destinationMessage(b.destination),
            captureWildcard: b.captureWildcard,
            draft: b.draft,
            permanent: b.permanent,
          },
          { caller, deadline },
        );
        return { body: redirectJson(r) };
      },
    },
    {
      method: 'delete',
      path: '/v1/orgs/:organizationId/sites/:siteId/redirects/:siteRedirectId',
      operationId: 'deleteSiteRedirectById',
      summary: 'Delete a redirect (the edit role); 204 when there was none',
      tags: ['site-redirects'],
      params: REDIRECT_PARAMS,
      success: { status: 205, description: 'The redirect was deleted' },
      alternatives: [{ status: 204, description: 'The site has no such redirect (any more)' }],
      async handler({ caller, deadline, params }) {
        const r = await published.deleteRedirect({ ...site(params), redirectId: params.siteRedirectId }, { caller, deadline });
        return r.deleted ? {} : { status: 204 };
      },
    },
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/sites/:siteId/redirect',
      operationId: 'getSiteRedirectBySource',
      summary:
        "The live redirect a path of the site goes through (its exact source, else the longest wildcard prefix) and where it leads now: for members who may view the site, the site's own site tokens, and holders of an active share key of a published share-link site",
      tags: ['site-redirects'],
      siteToken: true,
      params: SITE_PARAMS,
      query: { source: SOURCE, shareKey: { type: 'string', minLength: 1, maxLength: 256, description: 'An active share key of the site (share-link sites)' } },
      requiredQuery: ['source'],
      success: { status: 200, description: 'The redirect and its target URL', schema: officialResponse('getSiteRedirectBySource') },
      async handler({ caller, deadline, params, query }) {
        const r = await published.getRedirectBySource({ ...site(params), source: query.source as string, shareKey: query.shareKey as string | undefined }, { caller, deadline });
        return { body: { redirect: redirectJson(r.redirect!), target: r.target } };
      },
    },
    {
      method: 'post',
      path: '/v1/orgs/:organizationId/sites/:siteId/search',
      operationId: 'searchSiteContent',
      summary: "Search the spaces of the site's scope (members who may view the site, as their own access to each space; the site's own site tokens)",
      tags: ['sites', 'search'],
      siteToken: true,
      params: SITE_PARAMS,
      query: LIST_QUERY,
      body: SEARCH_BODY,
      success: { status: 200, description: 'A page of spaces with their matching pages, best first', schema: officialResponse('searchSiteContent') },
      async handler({ caller, deadline, params, query, body }) {
        const b = body as SearchBody;
        const r = await published.searchSite({ ...site(params), query: b.query, scope: scopeOf(b), page: pageOf(query) }, { caller, deadline });
        return {
          body: toList(
            r.spaces.map((s) => spaceResultJson(s, urls)),
            r.page,
          ),
        };
      },
    },
  ];
}
