import { ID_PARAM, JsonSchema, officialResponse, RouteSpec } from '@bindery/gateway/http';
import { sitesPublishedV1 as pb } from '@bindery/shared/contracts';
import type { SitesClients } from '@bindery/sites/client';

/** A claim's value (the official PlainObject's values), nested at most three objects deep. */
const claimValue = (depth: number): JsonSchema => ({
  oneOf: [
    { type: 'string', maxLength: 1000 },
    { type: 'number' },
    { type: 'boolean' },
    {
      type: 'array',
      maxItems: 100,
      items: { oneOf: [{ type: 'string', maxLength: 1000 }, { type: 'number' }, { type: 'boolean' }, ...(depth < 3 ? [claimsObject(depth + 1)] : [])] },
    },
    ...(depth < 3 ? [claimsObject(depth + 1)] : []),
  ],
});
const claimsObject = (depth: number): JsonSchema => ({ type: 'object', maxProperties: 100, additionalProperties: claimValue(depth) });

/** The official SiteVisitorPayload. */
const VISITOR: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    type: { type: 'string', enum: ['human', 'agent'], description: 'Whether the visitor is a person or an agent (accepted; it changes nothing)' },
    jwtToken: { type: 'string', minLength: 1, maxLength: 8192, description: "The visitor's token: an HS256 JWT signed with the site's visitor key, carrying `exp`" },
    unsignedClaims: { ...claimsObject(1), description: 'Claims anyone may send: `visitor.claims.unsigned` in conditions' },
  },
};

const RESOLVE_BODY: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: {
    url: { type: 'string', format: 'uri', maxLength: 2048, description: '`<reader URL>/<basename>[/~share/<key>]/…` or `https://<hostname>[/~share/<key>]/…`' },
    redirectOnError: { type: 'boolean', description: 'Accepted; sites has no fallback URL to redirect a refused visitor to, so it changes nothing' },
    visitor: VISITOR,
  },
};

/** The official PublishedSiteContentLookup: the content, or the redirect variant. */
export function publishedContentJson(c: pb.PublishedSiteContent) {
  if (c.redirect) return c.redirectTarget === 'external' ? { target: 'external', site: c.siteId, redirect: c.redirect } : { target: 'content', redirect: c.redirect };
  return {
    organization: c.organizationId,
    site: c.siteId,
    ...(c.siteSectionId ? { siteSection: c.siteSectionId } : {}),
    siteSpace: c.siteSpaceId,
    space: c.spaceId,
    revision: c.revisionId,
    pathname: c.pathname,
    basePath: c.basePath,
    siteBasePath: c.siteBasePath,
    canonicalUrl: c.canonicalUrl,
    complete: c.complete,
    apiToken: c.apiToken,
  };
}

const SITE_PARAMS = { organizationId: ID_PARAM, siteId: ID_PARAM };
const publishingAuthJson = (a: pb.VisitorAuth) => ({ object: 'publishing-auth', backend: a.backend, privateKey: a.privateKey });

/** The published-URL resolver (0.202.0) and the key of a site's visitor tokens (0.130.0). */
export function publishedUrlRoutes(clients: Pick<SitesClients, 'published'>): RouteSpec[] {
  const published = clients.published;
  return [
    {
      method: 'post',
      path: '/v1/urls/published',
      operationId: 'resolvePublishedContentByUrl',
      summary:
        'Resolve a published URL to its site, section, site space, space, revision and page path, with a read-only site token for that audience (anyone, signed in or not; the URL and the visitor decide)',
      description:
        "A share-link site resolves only with an active key in the URL (`…/~share/<key>/…`); a visitor-auth site only with `visitor.jwtToken` verified with the site key; sections and site spaces whose condition fails for the visitor are as if absent. Where nothing is found, or the page path names no page, a live redirect of the site answers the redirect variant. 404 for anything not there for the visitor (unpublished, no or deactivated key, unknown site), the same with or without credentials. No credentials are needed (GitBook's renderer sends none); a token sent is checked as on any route (invalid: 401; a site token: 403). The share key is never echoed back.",
      tags: ['urls'],
      auth: 'optional',
      body: RESOLVE_BODY,
      success: { status: 200, description: 'The content the URL shows with its site token, or where it redirects', schema: officialResponse('resolvePublishedContentByUrl') },
      refusals: [{ status: 400, description: "`visitor.unsignedClaims` with the verified token's claims is over 4,096 characters of JSON" }],
      async handler({ caller, deadline, body }) {
        const b = body as { url: string; redirectOnError?: boolean; visitor?: { jwtToken?: string; unsignedClaims?: Record<string, unknown> } };
        const visitor = b.visitor && {
          token: b.visitor.jwtToken,
          unsignedClaims: b.visitor.unsignedClaims,
        };
        const c = await published.resolvePublishedUrl({ url: b.url, visitor, redirectOnError: b.redirectOnError ?? false }, { caller, deadline });
        return { body: publishedContentJson(c) };
      },
    },
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/sites/:siteId/publishing/auth',
      operationId: 'getSitePublishingAuthById',
      summary: "The key the site's visitor tokens are signed with (HS256), made on first read (admins)",
      tags: ['site-publishing-auth'],
      params: SITE_PARAMS,
      success: { status: 200, description: 'The site key', schema: officialResponse('getSitePublishingAuthById') },
      async handler({ caller, deadline, params }) {
        return { body: publishingAuthJson(await published.getVisitorAuth({ organizationId: params.organizationId, siteId: params.siteId }, { caller, deadline })) };
      },
    },
    {
      method: 'post',
      path: '/v1/orgs/:organizationId/sites/:siteId/publishing/auth/regenerate',
      operationId: 'regenerateSitePublishingAuthById',
      summary: 'A new key for the visitor tokens of the site: tokens signed with the old one stop resolving at once (admins)',
      tags: ['site-publishing-auth'],
      params: SITE_PARAMS,
      success: { status: 200, description: 'The new site key', schema: officialResponse('regenerateSitePublishingAuthById') },
      async handler({ caller, deadline, params }) {
        return { body: publishingAuthJson(await published.regenerateVisitorAuth({ organizationId: params.organizationId, siteId: params.siteId }, { caller, deadline })) };
      },
    },
  ];
}
