import type { ContentClients } from '@bindery/content/client';
import { internalCaller, isDomainErrorOf } from './internal-calls';
import { sectionsOf } from '@bindery/search/domain';
import type { IndexedPage } from '@bindery/search/data-access';

type PageJson = { id: string; type?: string; title?: string; path?: string; document?: { nodes?: unknown[] }; pages?: PageJson[] };

const SELF = internalCaller('search');

/**
 * Reads pages of a revision from content as search itself (content lets this service read every
 * space, see internalCaller). A page that is not a document (or no longer exists) reads as undefined.
 */
export async function readPage(content: ContentClients, spaceId: string, revisionId: string, pageId: string): Promise<IndexedPage | undefined> {
  try {
    const r = await content.revisions.getPage({ revision: { spaceId, revisionId, metadata: false }, pageId, path: '', format: 'document', evaluated: false }, { caller: SELF });
    const page = JSON.parse(r.pageJson) as PageJson;
    if (page.type && page.type !== 'document') return undefined;
    const title = page.title ?? '';
    return { pageId, title, path: r.path || page.path || '', sections: sectionsOf(title, page.document as never) };
  } catch (err) {
    if (isDomainErrorOf(err, 'not_found')) return undefined;
    throw err;
  }
}

/** Every page id of a revision (the current one when `revisionId` is empty), and the revision read. */
export async function pageIdsOf(content: ContentClients, spaceId: string, revisionId = ''): Promise<{ revisionId: string; pageIds: string[] }> {
  const r = await content.revisions.listPages({ spaceId, revisionId, metadata: false }, { caller: SELF });
  const ids: string[] = [];
  const walk = (pages: PageJson[]) => pages.forEach((p) => (ids.push(p.id), walk(p.pages ?? [])));
  walk(JSON.parse(r.pagesJson) as PageJson[]);
  return { revisionId: r.revisionId, pageIds: ids };
}

/** Every live space content holds (its pages of 1000, in id order), with its organization. */
export async function allSpaces(content: ContentClients): Promise<{ _id: string; organizationId: string }[]> {
  const out: { _id: string; organizationId: string }[] = [];
  let after = '';
  do {
    const r = await content.spaces.listAllSpaces({ after, limit: 1000 }, { caller: SELF });
    r.items.forEach((s) => out.push({ _id: s.spaceId, organizationId: s.organizationId }));
    after = r.next;
  } while (after);
  return out;
}

/** The space's current revision; undefined when content no longer holds it live. */
export async function currentRevision(content: ContentClients, spaceId: string): Promise<string | undefined> {
  try {
    return (await content.spaces.getSpace({ spaceId }, { caller: SELF })).revision;
  } catch (err) {
    if (isDomainErrorOf(err, 'not_found')) return undefined;
    throw err;
  }
}

/** Whether content holds the space live. */
export async function spaceExists(content: ContentClients, spaceId: string): Promise<boolean> {
  return (await currentRevision(content, spaceId)) !== undefined;
}
