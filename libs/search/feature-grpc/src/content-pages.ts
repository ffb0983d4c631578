import { type ContentClients, officialPage } from '@bindery/content/client';
import { walkPages } from '@bindery/shared/pages';
import { internalCaller, isDomainErrorOf } from './internal-calls';
import { sectionsOf } from '@bindery/search/domain';
import type { IndexedPage } from '@bindery/search/data-access';

const SELF = internalCaller('search');

/**
 * Reads pages of a revision from content as search itself (content lets this service read every
 * space, see internalCaller). A page that is not a document (or no longer exists) reads as undefined.
 */
export async function readPage(content: ContentClients, spaceId: string, revisionId: string, pageId: string): Promise<IndexedPage | undefined> {
  try {
    const r = await content.revisions.getPage({ revision: { spaceId, revisionId, metadata: false }, pageId, path: '', format: 'document', evaluated: false }, { caller: SELF });
    if (!r.page?.document) return undefined;
    const page = officialPage({ ...r.page, pages: [] });
    return { pageId, title: page.title, path: r.path || page.path || '', sections: sectionsOf(page.title, page.document!) };
  } catch (err) {
    if (isDomainErrorOf(err, 'not_found')) return undefined;
    throw err;
  }
}

/** Every page id of a revision (the current one when `revisionId` is empty), and the revision read. */
export async function pageIdsOf(content: ContentClients, spaceId: string, revisionId = ''): Promise<{ revisionId: string; pageIds: string[] }> {
  const r = await content.revisions.listPages({ spaceId, revisionId, metadata: false }, { caller: SELF });
  return { revisionId: r.revisionId, pageIds: [...walkPages(r.pages)].map(({ page }) => page.id) };
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
