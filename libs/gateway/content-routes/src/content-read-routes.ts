import { ID_PARAM, JsonSchema, LIST_QUERY, officialResponse, RouteSpec, toList } from '@bindery/gateway/http';
import { organizationJson } from '@bindery/gateway/identity-routes';
import { type ContentClients, contentRefOf, officialLinkStats, officialLinkUsage, officialLocation, officialReusableContent } from '@bindery/content/client';
import type { IdentityClients } from '@bindery/identity/client';
import type { ChangeRequestOf } from '@bindery/gateway/change-request-json';
import type { Caller } from '@bindery/platform/grpc';
import { contentRevisionsV1 as pb, documentFromMessage } from '@bindery/shared/contracts';
import { fileJson, locationWithObjects, pageJson, revisionJson } from './content-representations';
import { spaceJson, Urls } from './representations';
import { pageOf } from './request-mapping';

const BOOL = (description: string, dflt: boolean) => ({ type: 'boolean', default: dflt, description });
const REVISION_QUERY = {
  metadata: BOOL('false leaves out git metadata that may change', true),
  computed: BOOL('accepted; no content here is computed', true),
};
const PAGE_QUERY = {
  ...REVISION_QUERY,
  format: { type: 'string', enum: ['document', 'markdown'], description: 'The form of the document: GitBook document JSON (default) or Markdown' },
  evaluated: {
    anyOf: [{ type: 'boolean' }, { type: 'string', enum: ['deterministic-only'] }],
    description: 'accepted; spaces here hold no variables, so no expression has a value to put in: the document is answered as stored',
  },
  'format.markdown.refs': {
    type: 'string',
    enum: ['relative', 'stable'],
    description: 'stable: references are written as stable `/pages/<id>`, `/files/<id>` and `/reusable-content/<id>` refs; relative is accepted and answered the same way',
  },
  dereferenced: {
    anyOf: [{ type: 'boolean' }, { type: 'string', enum: ['reusable-contents'] }],
    description:
      "true or reusable-contents: the document's reusable-content blocks of this space are replaced by the blocks of their documents (the only references expanded here)",
  },
  cachedMetadata: { type: 'boolean', description: 'accepted' },
};
const DOCUMENT_QUERY = {
  evaluated: PAGE_QUERY.evaluated,
  dereferenced: PAGE_QUERY.dereferenced,
};
/** Whether `dereferenced` asks for the reusable contents inlined (`true` or `reusable-contents`). */
const dereferencing = (query: Record<string, unknown>) => query.dereferenced === true || query.dereferenced === 'reusable-contents';
const LINKS_QUERY = { ...LIST_QUERY, status: { type: 'string', enum: ['ok', 'broken', 'in-app'], description: 'Only links with this status' } };
const SPACE = { spaceId: ID_PARAM };
const REVISION = { spaceId: ID_PARAM, revisionId: ID_PARAM };
const PATH_PARAM = { type: 'string', minLength: 1, maxLength: 2048, description: 'The page path (slugs joined by "/")' };

type Revisions = ContentClients['revisions'];
type Ctx = { caller: Caller; deadline: Date };
export { PATH_PARAM };

/** Which revision a read is about: the path's `revisionId`, or '' for the space's current one. */
export type RevisionOf = (params: Record<string, string>, ctx: Ctx) => Promise<string>;

const fromPath: RevisionOf = async (params) => params.revisionId ?? '';

/**
 * The builders of the revision reads (revision, pages, page, files, file, backlinks, links), for any
 * way of naming the revision: the current one, one by id, a change request's head. A merge revision
 * names the change request it merged by id; the answer carries the official ChangeRequest.
 */
export function revisionReadBuilders(revisions: Revisions, identity: IdentityClients, urls: Urls, changeRequestOf: ChangeRequestOf, revisionOf: RevisionOf = fromPath) {
  const sel = async (params: Record<string, string>, query: Record<string, unknown>, ctx: Ctx): Promise<pb.RevisionSelector> => ({
    spaceId: params.spaceId,
    revisionId: await revisionOf(params, ctx),
    metadata: query.metadata !== false,
  });
  const revisionRoute = (path: string, operationId: string, schema: JsonSchema, params: Record<string, JsonSchema>, summary: string): RouteSpec => ({
    method: 'get',
    path,
    operationId,
    summary,
    tags: ['content'],
    params,
    query: REVISION_QUERY,
    success: { status: 200, description: 'The revision with its pages and files', schema },
    async handler({ caller, deadline, params: p, query }) {
      const r = await revisions.getRevision(await sel(p, query, { caller, deadline }), { caller, deadline });
      if (!r.revision) throw new Error('content answered no revision');
      const { mergedFrom, ...body } = revisionJson(r.revision, p.spaceId, urls);
      return { body: mergedFrom ? { ...body, mergedFrom: await changeRequestOf(p.spaceId, mergedFrom, { caller, deadline }) } : body };
    },
  });
  const pagesRoute = (path: string, operationId: string, schema: JsonSchema, params: Record<string, JsonSchema>): RouteSpec => ({
    method: 'get',
    path,
    operationId,
    summary: 'The page tree of the revision, each document page with its document (readers)',
    tags: ['content'],
    params,
    query: REVISION_QUERY,
    success: { status: 200, description: 'The pages', schema },
    async handler({ caller, deadline, params: p, query }) {
      const r = await revisions.listPages(await sel(p, query, { caller, deadline }), { caller, deadline });
      return { body: { pages: r.pages.map((pg) => pageJson(pg, p.spaceId, urls)) } };
    },
  });
  const pageRoute = (path: string, operationId: string, schema: JsonSchema, params: Record<string, JsonSchema>, by: 'id' | 'path'): RouteSpec => ({
    method: 'get',
    path,
    operationId,
    summary: by === 'id' ? 'A page by id, its document in the format asked (readers)' : 'A page by its path, its document in the format asked (readers)',
    tags: ['content'],
    params,
    query: PAGE_QUERY,
    success: { status: 200, description: 'The page', schema },
    async handler({ caller, deadline, params: p, query }) {
      const r = await revisions.getPage(
        {
          revision: await sel(p, query, { caller, deadline }),
          pageId: by === 'id' ? p.pageId : '',
          path: by === 'path' ? p.pagePath : '',
          format: String(query.format ?? 'document'),
          evaluated: query.evaluated === true,
          dereferenceReusableContents: dereferencing(query),
        },
        { caller, deadline },
      );
      if (!r.page) throw new Error('content answered no page');
      return { body: pageJson(r.page, p.spaceId, urls) };
    },
  });
  const filesRoute = (path: string, operationId: string, schema: JsonSchema, params: Record<string, JsonSchema>): RouteSpec => ({
    method: 'get',
    path,
    operationId,
    summary: 'The files of the revision (readers)',
    tags: ['content'],
    params,
    query: { ...LIST_QUERY, ...REVISION_QUERY },
    success: { status: 200, description: 'A page of files', schema },
    async handler({ caller, deadline, params: p, query }) {
      const r = await revisions.listFiles({ revision: await sel(p, query, { caller, deadline }), page: pageOf(query) }, { caller, deadline });
      return {
        body: toList(
          r.files.map((f) => fileJson(f, urls)),
          r.page,
        ),
      };
    },
  });
  const fileRoute = (path: string, operationId: string, schema: JsonSchema, params: Record<string, JsonSchema>): RouteSpec => ({
    method: 'get',
    path,
    operationId,
    summary: 'A file of the revision with a signed, expiring download URL (readers)',
    tags: ['content'],
    params,
    query: REVISION_QUERY,
    success: { status: 200, description: 'The file', schema },
    async handler({ caller, deadline, params: p, query }) {
      const r = await revisions.getFile({ revision: await sel(p, query, { caller, deadline }), fileId: p.fileId }, { caller, deadline });
      if (!r.file) throw new Error('content answered no file');
      return { body: fileJson(r.file, urls) };
    },
  });

  /** Locations name their organization and space by id; the answer carries the objects. */
  const objectsOf = async (space: NonNullable<pb.LinksReply['space']>, ctx: Ctx) => {
    const organization = organizationJson(await identity.identity.getOrganization({ organizationId: space.organization }, ctx), urls);
    const spaceObject = spaceJson(space, urls);
    return (l: pb.ContentLocation) => locationWithObjects(officialLocation(l), organization, spaceObject, space.id, urls);
  };
  const linksRoute = (path: string, operationId: string, schema: JsonSchema, params: Record<string, JsonSchema>, summary: string): RouteSpec => ({
    method: 'get',
    path,
    operationId,
    summary,
    tags: ['content'],
    params,
    query: LINKS_QUERY,
    success: { status: 200, description: 'A page of links with their status, and the stats of all of them', schema },
    async handler({ caller, deadline, params: p, query }) {
      const r = await revisions.listLinks(
        { revision: await sel(p, {}, { caller, deadline }), pageId: p.pageId ?? '', status: String(query.status ?? ''), page: pageOf(query) },
        { caller, deadline },
      );
      if (!r.space) throw new Error('content answered no space');
      const one = await objectsOf(r.space, { caller, deadline });
      const items = r.items.map((u) => {
        const usage = officialLinkUsage(u);
        return { ...usage, ...(u.targetReference ? { targetReference: one(u.targetReference) } : {}), locationReferences: u.locationReferences.map(one) };
      });
      return { body: { ...toList(items, r.page), stats: officialLinkStats(r.stats) } };
    },
  });

  const backlinksRoute = (path: string, operationId: string, schema: JsonSchema, params: Record<string, JsonSchema>): RouteSpec => ({
    method: 'get',
    path,
    operationId,
    summary: 'The pages of the revision that use a file (readers)',
    tags: ['content'],
    params,
    query: LIST_QUERY,
    success: { status: 200, description: 'A page of locations', schema },
    async handler({ caller, deadline, params: p, query }) {
      const r = await revisions.listFileBacklinks({ revision: await sel(p, {}, { caller, deadline }), fileId: p.fileId, page: pageOf(query) }, { caller, deadline });
      if (!r.space) throw new Error('content answered no space');
      const one = await objectsOf(r.space, { caller, deadline });
      return { body: toList(r.items.map(one), r.page) };
    },
  });
  /** A reusable content of the revision (`part: 'document'`: its document, the official JSONDocument). */
  const reusableContentRoute = (path: string, operationId: string, schema: JsonSchema, params: Record<string, JsonSchema>, part: 'content' | 'document'): RouteSpec => ({
    method: 'get',
    path,
    operationId,
    summary:
      part === 'content' ? 'A reusable content of the revision: its title and the id of its document (readers)' : 'The document of a reusable content of the revision (readers)',
    tags: ['content'],
    params,
    query: part === 'content' ? REVISION_QUERY : DOCUMENT_QUERY,
    success: { status: 200, description: part === 'content' ? 'The reusable content' : 'Its document', schema },
    async handler({ caller, deadline, params: p, query }) {
      const dereference = part === 'document' && dereferencing(query);
      const r = await revisions.getReusableContent(
        { revision: await sel(p, query, { caller, deadline }), reusableContentId: p.reusableContentId, dereferenceReusableContents: dereference },
        { caller, deadline },
      );
      if (part === 'document') return { body: documentFromMessage(r.document!) };
      if (!r.reusableContent) throw new Error('content answered no reusable content');
      return { body: officialReusableContent(r.reusableContent) };
    },
  });
  /** A page's document (0.202.0), its reusable contents inlined when `dereferenced` asks. */
  const pageDocumentRoute = (path: string, operationId: string, schema: JsonSchema, params: Record<string, JsonSchema>): RouteSpec => ({
    method: 'get',
    path,
    operationId,
    summary: 'The document of a page of the revision, the official JSONDocument; a group or a link has none (404) (readers)',
    tags: ['content'],
    params,
    query: DOCUMENT_QUERY,
    success: { status: 200, description: 'Its document', schema },
    async handler({ caller, deadline, params: p, query }) {
      const r = await revisions.getPageDocument(
        { revision: await sel(p, query, { caller, deadline }), pageId: p.pageId, dereferenceReusableContents: dereferencing(query) },
        { caller, deadline },
      );
      return { body: documentFromMessage(r.document!) };
    },
  });
  /** A page's canonical and alternate links (0.202.0's RevisionPageMetaLinks). */
  const metaLinksRoute = (path: string, operationId: string, schema: JsonSchema, params: Record<string, JsonSchema>): RouteSpec => ({
    method: 'get',
    path,
    operationId,
    summary: "A page's canonical and alternate links; no page here names any, so both are absent or empty (readers)",
    tags: ['content'],
    params,
    success: { status: 200, description: 'Its meta links', schema },
    async handler({ caller, deadline, params: p, query }) {
      const r = await revisions.getPageMetaLinks({ revision: await sel(p, query, { caller, deadline }), pageId: p.pageId }, { caller, deadline });
      return { body: { ...(r.canonical ? { canonical: contentRefOf(r.canonical) } : {}), alternates: r.alternates.map(contentRefOf) } };
    },
  });
  return { revisionRoute, pagesRoute, pageRoute, filesRoute, fileRoute, backlinksRoute, linksRoute, reusableContentRoute, pageDocumentRoute, metaLinksRoute };
}

/**
 * A read a site token may make (its space is one of the token's: content decides). A revision by id
 * is one (GitBook's renderer reads the revision the resolver named): a merge revision names its
 * change request, which change-requests answers a site token once merged, and identity names its
 * people without addresses. The current revision (`/content`) is not opened: the renderer reads it
 * page by page.
 */
const forSiteTokens = (route: RouteSpec): RouteSpec => ({ ...route, siteToken: true });

/** The space-content reads, under /content (current revision) and /revisions/{revisionId} (history). */
export function contentReadRoutes(revisions: Revisions, identity: IdentityClients, urls: Urls, changeRequestOf: ChangeRequestOf): RouteSpec[] {
  const { revisionRoute, pagesRoute, pageRoute, filesRoute, fileRoute, backlinksRoute, linksRoute, reusableContentRoute, pageDocumentRoute, metaLinksRoute } = revisionReadBuilders(
    revisions,
    identity,
    urls,
    changeRequestOf,
  );
  const reusable = { reusableContentId: ID_PARAM };
  return [
    revisionRoute(
      '/v1/spaces/:spaceId/content',
      'getCurrentRevision',
      officialResponse('getCurrentRevision'),
      SPACE,
      "The space's current revision: pages with their documents, files (readers)",
    ),
    forSiteTokens(pagesRoute('/v1/spaces/:spaceId/content/pages', 'listPages', officialResponse('listPages'), SPACE)),
    forSiteTokens(filesRoute('/v1/spaces/:spaceId/content/files', 'listFiles', officialResponse('listFiles'), SPACE)),
    forSiteTokens(fileRoute('/v1/spaces/:spaceId/content/files/:fileId', 'getFileById', officialResponse('getFileById'), { ...SPACE, fileId: ID_PARAM })),
    backlinksRoute('/v1/spaces/:spaceId/content/files/:fileId/backlinks', 'listSpaceFileBacklinks', officialResponse('listSpaceFileBacklinks'), { ...SPACE, fileId: ID_PARAM }),
    forSiteTokens(pageRoute('/v1/spaces/:spaceId/content/page/:pageId', 'getPageById', officialResponse('getPageById'), { ...SPACE, pageId: ID_PARAM }, 'id')),
    linksRoute(
      '/v1/spaces/:spaceId/content/page/:pageId/links',
      'listPageLinksInSpace',
      officialResponse('listPageLinksInSpace'),
      { ...SPACE, pageId: ID_PARAM },
      'The links of one page of the current revision (readers)',
    ),
    forSiteTokens(pageRoute('/v1/spaces/:spaceId/content/path/*pagePath', 'getPageByPath', officialResponse('getPageByPath'), { ...SPACE, pagePath: PATH_PARAM }, 'path')),
    linksRoute(
      '/v1/spaces/:spaceId/links',
      'listSpaceLinks',
      officialResponse('listSpaceLinks'),
      SPACE,
      'Every link of the current revision with its status, and their stats (readers)',
    ),
    forSiteTokens(
      revisionRoute(
        '/v1/spaces/:spaceId/revisions/:revisionId',
        'getRevisionById',
        officialResponse('getRevisionById'),
        REVISION,
        'A revision of the space by id (readers, site tokens)',
      ),
    ),
    forSiteTokens(pagesRoute('/v1/spaces/:spaceId/revisions/:revisionId/pages', 'listPagesInRevisionById', officialResponse('listPagesInRevisionById'), REVISION)),
    forSiteTokens(filesRoute('/v1/spaces/:spaceId/revisions/:revisionId/files', 'listFilesInRevisionById', officialResponse('listFilesInRevisionById'), REVISION)),
    forSiteTokens(
      fileRoute('/v1/spaces/:spaceId/revisions/:revisionId/files/:fileId', 'getFileInRevisionById', officialResponse('getFileInRevisionById'), { ...REVISION, fileId: ID_PARAM }),
    ),
    forSiteTokens(
      pageRoute(
        '/v1/spaces/:spaceId/revisions/:revisionId/page/:pageId',
        'getPageInRevisionById',
        officialResponse('getPageInRevisionById'),
        { ...REVISION, pageId: ID_PARAM },
        'id',
      ),
    ),
    forSiteTokens(
      pageRoute(
        '/v1/spaces/:spaceId/revisions/:revisionId/path/*pagePath',
        'getPageInRevisionByPath',
        officialResponse('getPageInRevisionByPath'),
        { ...REVISION, pagePath: PATH_PARAM },
        'path',
      ),
    ),
    // reusable contents: the official document has /document in the revision variant only
    forSiteTokens(
      reusableContentRoute(
        '/v1/spaces/:spaceId/content/reusable-contents/:reusableContentId',
        'getReusableContentById',
        officialResponse('getReusableContentById'),
        { ...SPACE, ...reusable },
        'content',
      ),
    ),
    forSiteTokens(
      reusableContentRoute(
        '/v1/spaces/:spaceId/revisions/:revisionId/reusable-contents/:reusableContentId',
        'getReusableContentInRevisionById',
        officialResponse('getReusableContentInRevisionById'),
        { ...REVISION, ...reusable },
        'content',
      ),
    ),
    forSiteTokens(
      reusableContentRoute(
        '/v1/spaces/:spaceId/revisions/:revisionId/reusable-contents/:reusableContentId/document',
        'getReusableContentDocumentInRevisionById',
        officialResponse('getReusableContentDocumentInRevisionById'),
        { ...REVISION, ...reusable },
        'document',
      ),
    ),
    // the reads GitBook's renderer makes of a page (0.202.0)
    forSiteTokens(
      pageDocumentRoute('/v1/spaces/:spaceId/revisions/:revisionId/page/:pageId/document', 'getPageDocumentInRevisionById', officialResponse('getPageDocumentInRevisionById'), {
        ...REVISION,
        pageId: ID_PARAM,
      }),
    ),
    forSiteTokens(
      metaLinksRoute('/v1/spaces/:spaceId/content/page/:pageId/meta-links', 'listSpacePageMetaLinks', officialResponse('listSpacePageMetaLinks'), { ...SPACE, pageId: ID_PARAM }),
    ),
    forSiteTokens(
      metaLinksRoute('/v1/spaces/:spaceId/revisions/:revisionId/page/:pageId/meta-links', 'listRevisionPageMetaLinks', officialResponse('listRevisionPageMetaLinks'), {
        ...REVISION,
        pageId: ID_PARAM,
      }),
    ),
  ];
}
