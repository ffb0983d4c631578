import type { Caller } from '@bindery/platform/grpc';
import { isDomainError } from '@bindery/platform/errors';
import { ContentClients, ContentDownloadsClient, downloadTokenOf, officialFile, officialPage } from '@bindery/content/client';
import type { SitesClients } from '@bindery/sites/client';
import type { sitesStructureV1, sitesV1 } from '@bindery/shared/contracts';
import type { Document, FileNode, PageNode } from '@bindery/reader/render';
import { digest } from './cached-source';
import { Lru } from './lru';
import type { ContentAccess, FileBody, PublishedContent, ReaderSource, SearchHit, SectionView, SiteSpaceView, SiteView, StructureItem, Visibility, Visitor } from './source';

/** What a site token may read (the sites service's SiteTokenScope; `caller.site` on platform callers). */
export interface SiteScope {
  organizationId: string;
  siteId: string;
  spaceIds: string[];
  tokenId: string;
}

export interface GrpcSourceOptions {
  sites: Pick<SitesClients, 'published' | 'structure'>;
  content: Pick<ContentClients, 'revisions'>;
  downloads: Pick<ContentDownloadsClient, 'downloadFile'>;
  /** who the reader is towards sites (the resolver opens published content to any caller it trusts) */
  readerCaller: Caller;
  /** the caller content sees for a site token's scope (platform's `siteCaller` once site callers exist) */
  siteCaller?: (scope: SiteScope) => Caller;
  /** how long a file download may take */
  downloadDeadlineMs?: number;
}

/** A site token's caller, as libs/platform/grpc builds it: no user, never an administrator, the scope it may read. */
export const defaultSiteCaller = (scope: SiteScope): Caller => {
  const caller = { userId: `site:${scope.tokenId}`, isInstanceAdmin: false, site: scope };
  return caller as Caller;
};

const notFound = (err: unknown) => isDomainError(err) && err.kind === 'not_found';

/** `/<site>/~share/<key>` → `/<site>`: the reader's links never carry the key (a cookie does). */
const withoutShareKey = (path: string) => path.replace(/\/~share\/[^/]+/, '').replace(/\/+$/, '');
const pathOf = (url: string | undefined) => {
  if (!url) return undefined;
  try {
    return withoutShareKey(new URL(url).pathname);
  } catch {
    return undefined;
  }
};

const VISIBILITIES: Visibility[] = ['public', 'unlisted', 'share-link', 'visitor-auth'];

/**
 * The reader's source over gRPC: sites resolves URLs (visibility, share keys, visitor tokens,
 * conditions) and answers the published structure; content is read as the site's audience, through
 * the site token the resolver hands out (its scope from AuthenticateSiteToken, kept a minute).
 */
export class GrpcSource implements ReaderSource {
  private readonly scopes = new Lru<Promise<SiteScope>>(10_000, 60_000);
  private readonly siteCaller: (scope: SiteScope) => Caller;

  constructor(private readonly o: GrpcSourceOptions) {
    this.siteCaller = o.siteCaller ?? defaultSiteCaller;
  }

  async resolve(url: string, visitor: Visitor): Promise<PublishedContent | undefined> {
    let found;
    try {
      found = await this.o.sites.published.resolvePublishedUrl(
        { url, visitor: visitor.visitorToken ? { token: visitor.visitorToken } : undefined, redirectOnError: false },
        { caller: this.o.readerCaller },
      );
    } catch (err) {
      if (notFound(err)) return undefined;
      throw err;
    }
    const audience = visitor.visitorToken ? `v:${digest(visitor.visitorToken)}` : visitor.shareKey ? 'share' : 'public';
    return {
      organizationId: found.organizationId,
      siteId: found.siteId,
      siteSectionId: found.siteSectionId,
      siteSpaceId: found.siteSpaceId,
      spaceId: found.spaceId,
      revisionId: found.revisionId,
      pathname: found.pathname.replace(/^\/+|\/+$/g, ''),
      basePath: withoutShareKey(found.basePath),
      siteBasePath: withoutShareKey(found.siteBasePath),
      audience,
      ...(found.redirect ? { redirect: found.redirect, redirectPermanent: found.redirectPermanent } : {}),
      access: { spaceId: found.spaceId, revisionId: found.revisionId, credential: found.apiToken },
    };
  }

  async site(content: PublishedContent, visitor: Visitor): Promise<SiteView> {
    const published = await this.o.sites.structure.getPublishedSite(
      { organizationId: content.organizationId, siteId: content.siteId, page: undefined, shareKey: visitor.shareKey },
      { caller: this.o.readerCaller },
    );
    const site = published.site;
    if (!site) throw new Error('GetPublishedSite answered no site');
    const view = toSiteView(site, published.structure, content);
    // The published structure is not evaluated for a visitor: conditional sections and site spaces
    // are kept only when the resolver opens them to this visitor.
    return this.withoutClosedSpaces(view, content, visitor);
  }

  private async withoutClosedSpaces(view: SiteView, content: PublishedContent, visitor: Visitor): Promise<SiteView> {
    const opens = async (ss: SiteSpaceView) => !ss.conditional || ss.id === content.siteSpaceId || !!(await this.siteSpaceContent(content, ss, visitor));
    const keep = async (spaces: SiteSpaceView[]) => {
      const flags = await Promise.all(spaces.map(opens));
      return spaces.filter((_, i) => flags[i]);
    };
    const section = async (s: SectionView): Promise<SectionView | undefined> => {
      const siteSpaces = await keep(s.siteSpaces);
      return siteSpaces.length ? { ...s, siteSpaces } : undefined;
    };
    const structure: StructureItem[] = [];
    for (const item of view.structure) {
      if (item.kind === 'section') {
        const s = await section(item.section);
        if (s) structure.push({ kind: 'section', section: s });
      } else {
        const sections = (await Promise.all(item.group.sections.map(section))).filter((s): s is SectionView => !!s);
        if (sections.length) structure.push({ kind: 'group', group: { ...item.group, sections } });
      }
    }
    return { ...view, structure, siteSpaces: await keep(view.siteSpaces) };
  }

  async siteSpaceContent(content: PublishedContent, siteSpace: SiteSpaceView, visitor: Visitor): Promise<ContentAccess | undefined> {
    if (!siteSpace.url) return undefined;
    let url = siteSpace.url;
    if (visitor.shareKey) {
      const u = new URL(siteSpace.url);
      const rest = u.pathname.slice(content.siteBasePath.length);
      u.pathname = `${content.siteBasePath}/~share/${encodeURIComponent(visitor.shareKey)}${rest}`;
      url = u.toString();
    }
    const found = await this.resolve(url.endsWith('/') ? url : `${url}/`, visitor);
    return found && found.siteId === content.siteId && found.siteSpaceId === siteSpace.id ? found.access : undefined;
  }

  private scopeOf(access: ContentAccess): Promise<SiteScope> {
    const token = access.credential;
    if (!token) return Promise.reject(new Error('content is read with a site token; the resolution carried none'));
    const key = digest(token);
    let scope = this.scopes.get(key);
    if (!scope) {
      scope = this.o.sites.published
        .authenticateSiteToken({ token }, { caller: this.o.readerCaller })
        .then((s) => ({ organizationId: s.organizationId, siteId: s.siteId, spaceIds: s.spaceIds, tokenId: s.tokenId }));
      scope.catch(() => this.scopes.delete(key));
      this.scopes.set(key, scope);
    }
    return scope;
  }

  private async callerFor(access: ContentAccess): Promise<Caller> {
    return this.siteCaller(await this.scopeOf(access));
  }

  private selector(access: ContentAccess) {
    return { spaceId: access.spaceId, revisionId: access.revisionId, metadata: false };
  }

  async pages(access: ContentAccess): Promise<PageNode[]> {
    const reply = await this.o.content.revisions.listPages(this.selector(access), { caller: await this.callerFor(access) });
    return reply.pages.map(officialPage);
  }

  async document(access: ContentAccess, pageId: string): Promise<Document | undefined> {
    try {
      const reply = await this.o.content.revisions.getPage(
        { revision: this.selector(access), pageId, path: '', format: 'document', evaluated: true },
        { caller: await this.callerFor(access) },
      );
      return reply.page && officialPage({ ...reply.page, pages: [] }).document;
    } catch (err) {
      if (notFound(err)) return undefined;
      throw err;
    }
  }

  async files(access: ContentAccess): Promise<FileNode[]> {
    const caller = await this.callerFor(access);
    const out: FileNode[] = [];
    let page = '';
    for (let i = 0; i < 1000; i++) {
      const reply = await this.o.content.revisions.listFiles({ revision: this.selector(access), page: { page, limit: 1000 } }, { caller });
      out.push(...reply.files.map(officialFile));
      if (!reply.page?.nextPage) break;
      page = reply.page.nextPage;
    }
    return out;
  }

  /** A reusable content's document, of the same revision as the page (undefined when the revision holds none by that id). */
  async reusableContent(access: ContentAccess, reusableContentId: string): Promise<Document | undefined> {
    try {
      const reply = await this.o.content.revisions.getReusableContent({ revision: this.selector(access), reusableContentId }, { caller: await this.callerFor(access) });
      return JSON.parse(reply.documentJson) as Document;
    } catch (err) {
      if (notFound(err)) return undefined;
      throw err;
    }
  }

  async openFile(access: ContentAccess, fileId: string): Promise<FileBody | undefined> {
    const file = (await this.files(access)).find((f) => f.id === fileId);
    const token = downloadTokenOf(file?.downloadURL);
    if (!file || !token) return undefined;
    const replies = this.o.downloads.downloadFile({ token }, { deadline: new Date(Date.now() + (this.o.downloadDeadlineMs ?? 3_600_000)) });
    const iterator = replies[Symbol.asyncIterator]();
    const first = await iterator.next();
    const head = first.done ? undefined : first.value.head;
    if (!head) {
      replies.cancel();
      return undefined;
    }
    return {
      name: head.name,
      contentType: head.contentType,
      size: Number(head.size),
      chunks: (async function* () {
        for (;;) {
          const next = await iterator.next();
          if (next.done) return;
          if (next.value.data) yield next.value.data;
        }
      })(),
      cancel: () => replies.cancel(),
    };
  }

  async search(content: PublishedContent, query: string, visitor: Visitor): Promise<SearchHit[]> {
    const [reply, site] = await Promise.all([
      this.o.sites.published.searchSite(
        {
          organizationId: content.organizationId,
          siteId: content.siteId,
          query,
          scopeJson: JSON.stringify({ mode: 'all' }),
          page: { page: '', limit: 20 },
          shareKey: visitor.shareKey,
        },
        { caller: this.o.readerCaller },
      ),
      this.site(content, visitor),
    ]);
    const bySpace = new Map<string, SiteSpaceView>();
    for (const item of site.structure) for (const s of item.kind === 'section' ? [item.section] : item.group.sections) for (const ss of s.siteSpaces) bySpace.set(ss.spaceId, ss);
    for (const ss of site.siteSpaces) bySpace.set(ss.spaceId, ss);
    const hits: SearchHit[] = [];
    for (const space of JSON.parse(reply.itemsJson) as Array<{ id: string; title: string; pages?: Array<{ title: string; path?: string; sections?: Array<{ body?: string }> }> }>) {
      const ss = bySpace.get(space.id);
      // A space the visitor's site view does not show is not searched for them.
      if (!ss) continue;
      for (const p of space.pages ?? []) hits.push({ title: p.title, path: `${ss.basePath}/${p.path ?? ''}`, snippet: p.sections?.[0]?.body, where: ss.title });
    }
    return hits;
  }
}

function siteSpaceView(ss: sitesV1.SiteSpace, fallbackBase: string): SiteSpaceView {
  return {
    id: ss.id,
    title: ss.title,
    spaceId: ss.spaceId,
    default: ss.default,
    basePath: pathOf(ss.publishedUrl) ?? fallbackBase,
    url: ss.publishedUrl,
    conditional: !!ss.condition,
  };
}

function sectionView(s: sitesV1.SiteSection, siteBase: string): SectionView {
  const basePath = pathOf(s.publishedUrl) ?? (s.default ? siteBase : `${siteBase}/${s.path}`);
  return {
    id: s.id,
    title: s.title,
    description: s.description,
    icon: s.icon,
    default: s.default,
    basePath,
    // A conditional section makes its site spaces conditional too.
    siteSpaces: s.siteSpaces.map((ss) => ({ ...siteSpaceView(ss, basePath), conditional: !!ss.condition || !!s.condition })),
    conditional: !!s.condition,
  };
}

/** The published site in the reader's terms (paths without share keys, URLs as sites publishes them). */
export function toSiteView(site: sitesV1.Site, structure: sitesStructureV1.SiteStructure | undefined, content: PublishedContent): SiteView {
  const siteBase = pathOf(site.publishedUrl) ?? content.siteBasePath;
  const items: StructureItem[] = [];
  const siteSpaces: SiteSpaceView[] = [];
  for (const item of structure?.items ?? []) {
    if (item.section) items.push({ kind: 'section', section: sectionView(item.section, siteBase) });
    else if (item.sectionGroup)
      items.push({
        kind: 'group',
        group: {
          id: item.sectionGroup.id,
          title: item.sectionGroup.title,
          icon: item.sectionGroup.icon,
          sections: item.sectionGroup.sections.map((s) => sectionView(s, siteBase)),
        },
      });
    else if (item.siteSpace) siteSpaces.push(siteSpaceView(item.siteSpace, siteBase));
  }
  return {
    id: site.id,
    organizationId: site.organizationId,
    title: site.title,
    visibility: (VISIBILITIES as string[]).includes(site.visibility) ? (site.visibility as Visibility) : 'unlisted',
    version: site.updatedAt,
    basePath: siteBase,
    url: site.publishedUrl ?? '',
    structure: items,
    siteSpaces,
  };
}
