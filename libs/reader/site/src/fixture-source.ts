import { plainTextOf } from '@bindery/shared/markdown';
import { Document, FileNode, flattenTree, PageNode } from '@bindery/reader/render';
import { digest } from './cached-source';
import type { ContentAccess, FileBody, PublishedContent, ReaderSource, SearchHit, SectionView, SiteSpaceView, SiteView, StructureItem, Visibility, Visitor } from './source';

/** A space's current revision, in memory. */
export interface FixtureSpace {
  id: string;
  revisionId: string;
  pages: PageNode[];
  documents: Record<string, Document>;
  /** a fixture serves the bytes itself: its files have no download URL */
  files?: Array<Omit<FileNode, 'downloadURL'> & { bytes: Buffer }>;
  reusableContents?: Record<string, Document>;
}

export interface FixtureSiteSpace {
  id: string;
  title: string;
  /** its path segment ('' for the default one, which lives at its section's or site's root) */
  path: string;
  spaceId: string;
  default?: boolean;
  /** a claim the visitor must hold (stands for the sites service's condition expressions) */
  condition?: string;
}

export interface FixtureSection {
  id: string;
  title: string;
  path: string;
  default?: boolean;
  description?: string;
  condition?: string;
  siteSpaces: FixtureSiteSpace[];
}

export interface FixtureSite {
  id: string;
  organizationId: string;
  /** the organization's part of the site's path (its hostname, or its id) */
  organization: string;
  title: string;
  description?: string;
  basename: string;
  visibility: Visibility;
  published: boolean;
  version?: string;
  sections?: FixtureSection[];
  groups?: Array<{ id: string; title: string; sectionIds: string[] }>;
  siteSpaces?: FixtureSiteSpace[];
  /** share-link keys: key → active */
  shareKeys?: Record<string, boolean>;
  /** visitor tokens the site's key verifies → their claims (stands for JWT verification) */
  visitorTokens?: Record<string, Record<string, unknown>>;
  /** path below the site → where it redirects */
  redirects?: Record<string, string>;
  /** the site's customization, as sites answers it in the published read */
  customization?: SiteView['customization'];
}

/**
 * A ReaderSource over sites and spaces held in memory, with the resolver's rules as the sites
 * service states them (docs/reader.md): only published sites; `share-link` sites with an active
 * key only; `visitor-auth` sites with a verified visitor token only; a section or site space whose
 * condition fails does not exist for that visitor. Counts its calls, so tests can tell a cached
 * answer from a new one.
 */
export class FixtureSource implements ReaderSource {
  readonly calls: Record<string, number> = {};

  /** `domain`: as BINDERY_READER_DOMAIN, a host `<organization>.<domain>` serves the organization's sites at `/<basename>` */
  constructor(
    readonly sites: FixtureSite[],
    readonly spaces: FixtureSpace[],
    private readonly options: { domain?: string } = {},
  ) {}

  private count(method: string): void {
    this.calls[method] = (this.calls[method] ?? 0) + 1;
  }

  totalCalls(): number {
    return Object.values(this.calls).reduce((a, b) => a + b, 0);
  }

  /** Replaces a space's current revision (a merge). */
  publishRevision(space: FixtureSpace): void {
    const i = this.spaces.findIndex((s) => s.id === space.id);
    if (i >= 0) this.spaces[i] = space;
    else this.spaces.push(space);
  }

  private space(access: ContentAccess): FixtureSpace | undefined {
    return this.spaces.find((s) => s.id === access.spaceId && s.revisionId === access.revisionId);
  }

  private claimsOf(site: FixtureSite, visitor: Visitor): Record<string, unknown> | undefined {
    return visitor.visitorToken ? site.visitorTokens?.[visitor.visitorToken] : undefined;
  }

  private opens(site: FixtureSite, visitor: Visitor): boolean {
    if (!site.published) return false;
    if (site.visibility === 'share-link') return !!visitor.shareKey && site.shareKeys?.[visitor.shareKey] === true;
    if (site.visibility === 'visitor-auth') return !!this.claimsOf(site, visitor);
    return true;
  }

  private holds(site: FixtureSite, visitor: Visitor, condition: string | undefined): boolean {
    return !condition || !!this.claimsOf(site, visitor)?.[condition];
  }

  private audience(site: FixtureSite, visitor: Visitor): string {
    if (visitor.visitorToken && this.claimsOf(site, visitor)) return `v:${digest(visitor.visitorToken)}`;
    return site.visibility === 'share-link' ? 'share' : 'public';
  }

  private sectionsFor(site: FixtureSite, visitor: Visitor): FixtureSection[] {
    return (site.sections ?? []).filter((s) => this.holds(site, visitor, s.condition));
  }

  private siteSpacesFor(site: FixtureSite, visitor: Visitor, spaces: FixtureSiteSpace[]): FixtureSiteSpace[] {
    return spaces.filter((s) => this.holds(site, visitor, s.condition));
  }

  async resolve(url: string, visitor: Visitor): Promise<PublishedContent | undefined> {
    this.count('resolve');
    const u = new URL(url);
    const atOrganization = this.options.domain && u.hostname.endsWith(`.${this.options.domain}`) ? u.hostname.slice(0, -this.options.domain.length - 1) : undefined;
    const segments = [...(atOrganization ? [atOrganization] : []), ...u.pathname.split('/').filter(Boolean)];
    const site = this.sites.find((s) => s.organization === segments[0] && s.basename === segments[1]);
    if (!site) return atOrganization ? undefined : this.movedFromEarlierForm(segments, visitor);
    let rest = segments.slice(2);
    // The share key arrives in the URL, as the sites resolver reads it.
    let shareKey = visitor.shareKey;
    if (rest[0] === '~share' && rest[1]) {
      shareKey = decodeURIComponent(rest[1]);
      rest = rest.slice(2);
    }
    const who = { ...visitor, shareKey };
    if (!this.opens(site, who)) return undefined;
    const redirect = site.redirects?.[rest.join('/')];
    const siteBasePath = atOrganization ? `/${site.basename}` : `/${site.organization}/${site.basename}`;
    let basePath = siteBasePath;
    let section: FixtureSection | undefined;
    let candidates = this.siteSpacesFor(site, who, site.siteSpaces ?? []);
    const sections = this.sectionsFor(site, who);
    if (sections.length) {
      section = sections.find((s) => !s.default && s.path === rest[0]);
      if (section) {
        rest = rest.slice(1);
        basePath += `/${section.path}`;
      } else section = sections.find((s) => s.default);
      if (!section) return undefined;
      candidates = this.siteSpacesFor(site, who, section.siteSpaces);
    }
    let siteSpace = candidates.find((s) => !s.default && s.path === rest[0]);
    if (siteSpace) {
      rest = rest.slice(1);
      basePath += `/${siteSpace.path}`;
    } else siteSpace = candidates.find((s) => s.default);
    if (!siteSpace) return undefined;
    const space = this.spaces.find((s) => s.id === siteSpace.spaceId);
    if (!space) return undefined;
    return {
      organizationId: site.organizationId,
      siteId: site.id,
      siteSectionId: section?.id,
      siteSpaceId: siteSpace.id,
      spaceId: space.id,
      revisionId: space.revisionId,
      pathname: rest.map(decodeURIComponent).join('/'),
      basePath,
      siteBasePath,
      audience: this.audience(site, who),
      ...(redirect ? { redirect } : {}),
      access: { spaceId: space.id, revisionId: space.revisionId },
    };
  }

  /** `/<basename>/…`, the form of earlier versions: moved for good to the first listed published site of that basename. */
  private movedFromEarlierForm(segments: string[], visitor: Visitor): PublishedContent | undefined {
    const site = this.sites.find((s) => s.basename === segments[0]);
    if (!site?.published) return undefined;
    const rest = segments
      .slice(1)
      .map((x) => `/${x}`)
      .join('');
    return {
      organizationId: site.organizationId,
      siteId: site.id,
      siteSpaceId: '',
      spaceId: '',
      revisionId: '',
      pathname: '',
      basePath: '',
      siteBasePath: '',
      audience: this.audience(site, visitor),
      redirect: `/${site.organization}/${site.basename}${rest}`,
      redirectPermanent: true,
      access: { spaceId: '', revisionId: '' },
    };
  }

  private siteOf(content: PublishedContent): FixtureSite {
    const site = this.sites.find((s) => s.id === content.siteId);
    if (!site) throw new Error(`no site ${content.siteId}`);
    return site;
  }

  async site(content: PublishedContent, visitor: Visitor): Promise<SiteView> {
    this.count('site');
    const site = this.siteOf(content);
    const base = content.siteBasePath;
    const siteSpaceView = (s: FixtureSiteSpace, sectionBase: string): SiteSpaceView => ({
      id: s.id,
      title: s.title,
      spaceId: s.spaceId,
      default: !!s.default,
      basePath: s.default ? sectionBase : `${sectionBase}/${s.path}`,
    });
    const sectionView = (s: FixtureSection): SectionView => {
      const sectionBase = s.default ? base : `${base}/${s.path}`;
      return {
        id: s.id,
        title: s.title,
        description: s.description,
        default: !!s.default,
        basePath: sectionBase,
        siteSpaces: this.siteSpacesFor(site, visitor, s.siteSpaces).map((ss) => siteSpaceView(ss, sectionBase)),
      };
    };
    const sections = this.sectionsFor(site, visitor);
    const grouped = new Set((site.groups ?? []).flatMap((g) => g.sectionIds));
    const structure: StructureItem[] = [];
    for (const section of sections) {
      const group = site.groups?.find((g) => g.sectionIds.includes(section.id));
      if (!grouped.has(section.id)) structure.push({ kind: 'section', section: sectionView(section) });
      else if (group && !structure.some((i) => i.kind === 'group' && i.group.id === group.id)) {
        const members = sections.filter((s) => group.sectionIds.includes(s.id)).map(sectionView);
        structure.push({ kind: 'group', group: { id: group.id, title: group.title, sections: members } });
      }
    }
    return {
      id: site.id,
      organizationId: site.organizationId,
      title: site.title,
      description: site.description,
      visibility: site.visibility,
      version: site.version ?? '1',
      basePath: base,
      url: `http://reader.invalid${base}`,
      structure,
      siteSpaces: sections.length ? [] : this.siteSpacesFor(site, visitor, site.siteSpaces ?? []).map((s) => siteSpaceView(s, base)),
      customization: site.customization,
    };
  }

  async siteSpaceContent(content: PublishedContent, siteSpace: SiteSpaceView, visitor: Visitor): Promise<ContentAccess | undefined> {
    this.count('siteSpaceContent');
    const site = this.siteOf(content);
    const all = [...(site.siteSpaces ?? []), ...this.sectionsFor(site, visitor).flatMap((s) => s.siteSpaces)];
    const found = this.siteSpacesFor(site, visitor, all).find((s) => s.id === siteSpace.id);
    const space = found && this.spaces.find((s) => s.id === found.spaceId);
    return space ? { spaceId: space.id, revisionId: space.revisionId } : undefined;
  }

  async pages(access: ContentAccess): Promise<PageNode[]> {
    this.count('pages');
    return this.space(access)?.pages ?? [];
  }

  async document(access: ContentAccess, pageId: string): Promise<Document | undefined> {
    this.count('document');
    return this.space(access)?.documents[pageId];
  }

  async files(access: ContentAccess): Promise<FileNode[]> {
    this.count('files');
    return (this.space(access)?.files ?? []).map(({ bytes: _bytes, ...file }) => ({ ...file, downloadURL: '' }));
  }

  async reusableContent(access: ContentAccess, id: string): Promise<Document | undefined> {
    this.count('reusableContent');
    return this.space(access)?.reusableContents?.[id];
  }

  async openFile(access: ContentAccess, fileId: string): Promise<FileBody | undefined> {
    this.count('openFile');
    const file = this.space(access)?.files?.find((f) => f.id === fileId);
    if (!file) return undefined;
    const bytes = file.bytes;
    return {
      name: file.name,
      contentType: file.contentType,
      size: bytes.length,
      chunks: (async function* () {
        yield bytes;
      })(),
      cancel: () => undefined,
    };
  }

  async search(content: PublishedContent, query: string, visitor: Visitor): Promise<SearchHit[]> {
    this.count('search');
    const site = await this.site(content, visitor);
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const hits: SearchHit[] = [];
    const spaces = site.structure.length
      ? site.structure.flatMap((i) => (i.kind === 'section' ? [i.section] : i.group.sections)).flatMap((s) => s.siteSpaces.map((ss) => ({ ss, where: s.title })))
      : site.siteSpaces.map((ss) => ({ ss, where: ss.title }));
    for (const { ss, where } of spaces) {
      const space = this.spaces.find((s) => s.id === ss.spaceId);
      if (!space) continue;
      const entries = flattenTree(space.pages);
      const first = entries.find((e) => e.page.type === 'document' && !e.hidden);
      for (const entry of entries) {
        // Hidden pages are reachable, not listed; noIndex pages are out of search.
        if (entry.page.type !== 'document' || entry.noIndex || entry.hidden) continue;
        const doc = space.documents[entry.page.id];
        const text = `${entry.page.title}\n${entry.page.description ?? ''}\n${doc ? plainTextOf(doc as never) : ''}`;
        const lower = text.toLowerCase();
        if (!words.every((w) => lower.includes(w))) continue;
        const at = lower.indexOf(words[0]);
        const snippet = text
          .slice(Math.max(0, at - 40), at + 80)
          .replace(/\s+/g, ' ')
          .trim();
        hits.push({ title: entry.page.title, path: first?.page.id === entry.page.id ? `${ss.basePath}/` : `${ss.basePath}/${entry.page.path}`, snippet, where });
      }
    }
    return hits.slice(0, 20);
  }
}
