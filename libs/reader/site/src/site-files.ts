import { flattenTree, ListedSpace, llmsTxt, robotsTxt, sitemapEntries, sitemapXml } from '@bindery/reader/render';
import type { PublishedContent, ReaderSource, SiteView, Visitor } from './source';
import { listingTitle, siteSpacesOf } from './structure';
import { SpaceView } from './page-view';
import { llmsFullTxt } from './llms-full';

export interface ReadSpace {
  listed: ListedSpace;
  content: PublishedContent;
  view: SpaceView;
}

/** Every site space the visitor may read (every section and variant), with its current page tree. */
export async function readSpaces(source: ReaderSource, content: PublishedContent, site: SiteView, visitor: Visitor, origin: string): Promise<ReadSpace[]> {
  const all = siteSpacesOf(site);
  const read = await Promise.all(
    all.map(async (entry) => {
      const access = entry.siteSpace.id === content.siteSpaceId ? content.access : await source.siteSpaceContent(content, entry.siteSpace, visitor);
      if (!access) return undefined;
      const tree = await source.pages(access);
      const spaceContent: PublishedContent = {
        ...content,
        siteSectionId: entry.section?.id,
        siteSpaceId: entry.siteSpace.id,
        spaceId: access.spaceId,
        revisionId: access.revisionId,
        basePath: entry.siteSpace.basePath,
        pathname: '',
        access,
      };
      return {
        listed: { title: listingTitle(site, entry), baseUrl: `${origin}${entry.siteSpace.basePath}`, pages: flattenTree(tree) },
        content: spaceContent,
        view: new SpaceView(entry.siteSpace.basePath, tree),
      };
    }),
  );
  return read.filter((r): r is ReadSpace => !!r);
}

/** The revisions a listing is made of: its cache key changes when any of them moves. */
export async function listingRevisions(source: ReaderSource, content: PublishedContent, site: SiteView, visitor: Visitor): Promise<string> {
  const all = siteSpacesOf(site);
  const revisions = await Promise.all(
    all.map(async (entry) => (entry.siteSpace.id === content.siteSpaceId ? content.access : await source.siteSpaceContent(content, entry.siteSpace, visitor))?.revisionId ?? '-'),
  );
  return revisions.join(',');
}

export async function siteFile(
  file: 'llms.txt' | 'llms-full.txt' | 'sitemap.xml' | 'robots.txt',
  input: { source: ReaderSource; content: PublishedContent; site: SiteView; visitor: Visitor; origin: string; llmsFullMaxBytes?: number },
): Promise<{ body: string; contentType: string }> {
  const { source, content, site, visitor, origin } = input;
  const indexable = site.visibility === 'public';
  if (file === 'robots.txt') return { body: robotsTxt({ indexable, sitemapUrl: `${origin}${site.basePath}/sitemap.xml` }), contentType: 'text/plain; charset=utf-8' };
  if (file === 'sitemap.xml') {
    // A site robots may not index lists nothing.
    const spaces = indexable ? await readSpaces(source, content, site, visitor, origin) : [];
    return { body: sitemapXml(sitemapEntries(spaces.map((s) => s.listed))), contentType: 'application/xml; charset=utf-8' };
  }
  const spaces = await readSpaces(source, content, site, visitor, origin);
  const head = { title: site.title, description: site.description };
  if (file === 'llms.txt')
    return {
      body: llmsTxt(
        head,
        spaces.map((s) => s.listed),
      ),
      contentType: 'text/plain; charset=utf-8',
    };
  return { body: await llmsFullTxt({ source, site, spaces, origin, maxBytes: input.llmsFullMaxBytes }), contentType: 'text/plain; charset=utf-8' };
}
