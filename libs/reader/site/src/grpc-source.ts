import type { Caller } from '@bindery/platform/grpc';
import { isDomainError } from '@bindery/platform/errors';
import { ContentClients, ContentDownloadsClient, downloadTokenOf, officialFile, officialPage } from '@bindery/content/client';
import type { SitesClients } from '@bindery/sites/client';
import { documentFromMessage, type sitesPublishedV1, type sitesStructureV1, type sitesV1 } from '@bindery/shared/contracts';
import type { Document, FileNode, PageNode } from '@bindery/reader/render';
import { digest } from './cached-source';
import { Lru } from './lru';
import { customizationsOf } from './grpc-customization';
import type { ContentAccess, FileBody, PublishedContent, ReaderSource, SearchHit, SectionView, SiteSpaceView, SiteView, StructureItem, Visibility, Visitor } from './source';

/** What a site token may read (the sites service's SiteTokenScope; `caller.site` on platform callers). */
export interface SiteScope {
  organizationId: string;
  siteId: string;
  spaceIds: string[];
  tokenId: string;
}

export interface GrpcSourceOptions {
  sites: Pick<SitesClients, 'published'>;
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

/** What one OpenPublishedUrl answered beside the resolution: the site for this visitor and how each of its site spaces is read. */
interface Opened {
  site: SiteView;
  /** the content of each site space the visitor may read, with the resolution's token */
  access: Map<string, ContentAccess>;
}

/**
 * The reader's source over gRPC: sites answers each request once (OpenPublishedUrl): the
 * resolution of the URL (visibility, share key, visitor token, conditions), the site token for this
 * audience with its scope, and the site as this visitor sees it. Content is read as the site's
 * audience, the caller built from that scope: the site token is never sent back to sites.
 */
export class GrpcSource implements ReaderSource {
  /** each access's caller (the scope OpenPublishedUrl answered with its token) */
  private readonly callers = new WeakMap<ContentAccess, Caller>();
  /** the scopes OpenPublishedUrl answered, by the digest of the site token it minted (API blocks read specs as the site with them) */
  private readonly tokenScopes = new Lru<SiteScope>(10_000, 60_000);
  /** what the resolutions of this source opened besides their content */
  private readonly opened = new WeakMap<PublishedContent, Opened>();
  private readonly siteCaller: (scope: SiteScope) => Caller;

  constructor(private readonly o: GrpcSourceOptions) {
    this.siteCaller = o.siteCaller ?? defaultSiteCaller;
  }

  /** The scope of a site token this source received with a resolution (undefined: not one of them, or forgotten). */
  scopeOfToken(token: string): SiteScope | undefined {
    return this.tokenScopes.get(digest(token));
  }

  async resolve(url: string, visitor: Visitor): Promise<PublishedContent | undefined> {
    let view: sitesPublishedV1.PublishedUrlView;
    try {
      view = await this.o.sites.published.openPublishedUrl(
        { url, visitor: visitor.visitorToken ? { token: visitor.visitorToken, unsignedClaims: undefined } : undefined, shareKey: visitor.shareKey },
        { caller: this.o.readerCaller },
      );
    } catch (err) {
      if (notFound(err)) return undefined;
      throw err;
    }
    const found = view.content;
    if (!found) throw new Error('OpenPublishedUrl answered no content');
    const audience = visitor.visitorToken ? `v:${digest(visitor.visitorToken)}` : visitor.shareKey ? 'share' : 'public';
    const access: ContentAccess = { spaceId: found.spaceId, revisionId: found.revisionId, credential: found.apiToken };
    const content: PublishedContent = {
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
      access,
    };
    if (found.redirect || !view.scope || !view.site?.site) return content;
    const scope: SiteScope = { organizationId: view.scope.organizationId, siteId: view.scope.siteId, spaceIds: view.scope.spaceIds, tokenId: view.scope.tokenId };
    const caller = this.siteCaller(scope);
    this.callers.set(access, caller);
    if (found.apiToken) this.tokenScopes.set(digest(found.apiToken), scope);
    const readable = new Map<string, ContentAccess>([[found.siteSpaceId, access]]);
    for (const ss of siteSpacesIn(view.site.structure)) {
      if (readable.has(ss.id) || !ss.space?.revision || !scope.spaceIds.includes(ss.spaceId)) continue;
      const other: ContentAccess = { spaceId: ss.spaceId, revisionId: ss.space.revision, credential: found.apiToken };
      this.callers.set(other, caller);
      readable.set(ss.id, other);
    }
    this.opened.set(content, {
      site: withoutEmptySections({ ...toSiteView(view.site.site, view.site.structure, content), customization: customizationsOf(view.site) }),
      access: readable,
    });
    return content;
  }

  /** The site as the resolution of `content` answered it for this visitor (no call of its own). */
  async site(content: PublishedContent): Promise<SiteView> {
    return this.openedBy(content).site;
  }

  /** Another site space of the site, as the resolution of `content` opened it to this visitor (no call of its own). */
  async siteSpaceContent(content: PublishedContent, siteSpace: SiteSpaceView): Promise<ContentAccess | undefined> {
    return this.openedBy(content).access.get(siteSpace.id);
  }

  private openedBy(content: PublishedContent): Opened {
    const opened = this.opened.get(content);
    if (!opened) throw new Error('the published content was not resolved by this source');
    return opened;
  }

  private async callerFor(access: ContentAccess): Promise<Caller> {
    const caller = this.callers.get(access);
    if (!caller) throw new Error('content is read with what a resolution of this source opened; this access was not');
    return caller;
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
      return documentFromMessage(reply.document!) as unknown as Document;
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
    const site = await this.site(content);
    const reply = await this.o.sites.published.searchSite(
      {
        organizationId: content.organizationId,
        siteId: content.siteId,
        query,
        scope: { mode: 'all', includedSiteSpaces: [], siteSpaceIds: [], restrictTo: '' },
        page: { page: '', limit: 20 },
        shareKey: visitor.shareKey,
      },
      { caller: this.o.readerCaller },
    );
    const bySpace = new Map<string, SiteSpaceView>();
    for (const item of site.structure) for (const s of item.kind === 'section' ? [item.section] : item.group.sections) for (const ss of s.siteSpaces) bySpace.set(ss.spaceId, ss);
    for (const ss of site.siteSpaces) bySpace.set(ss.spaceId, ss);
    const hits: SearchHit[] = [];
    for (const space of reply.spaces) {
      const ss = bySpace.get(space.id);
      // A space the visitor's site view does not show is not searched for them.
      if (!ss) continue;
      for (const p of space.pages) hits.push({ title: p.title, path: `${ss.basePath}/${p.path}`, snippet: p.sections[0]?.body, where: ss.title });
    }
    return hits;
  }
}

/** The site without the sections left with no site space for this visitor, nor the groups left with no section. */
function withoutEmptySections(view: SiteView): SiteView {
  const structure = view.structure.flatMap((item): StructureItem[] => {
    if (item.kind === 'section') return item.section.siteSpaces.length ? [item] : [];
    const sections = item.group.sections.filter((s) => s.siteSpaces.length);
    return sections.length ? [{ kind: 'group', group: { ...item.group, sections } }] : [];
  });
  return { ...view, structure };
}

/** Every site space of a published structure (at the top level, in sections, in groups' sections). */
function siteSpacesIn(structure: sitesStructureV1.SiteStructure | undefined): sitesV1.SiteSpace[] {
  return (structure?.items ?? []).flatMap((item) => [
    ...(item.siteSpace ? [item.siteSpace] : []),
    ...(item.section?.siteSpaces ?? []),
    ...(item.sectionGroup?.sections.flatMap((s) => s.siteSpaces) ?? []),
  ]);
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
