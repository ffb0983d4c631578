import { DomainError, invalid } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import type { ChangeRequestRecord } from '@bindery/change-requests/domain';
import { changeRequestsV1 as pb } from '@bindery/shared/contracts';
import { ChangeRequestsDeps } from '../deps';

const isNotFound = (err: unknown) => err instanceof DomainError && err.kind === 'not_found';

/** A page of a revision of the change request's space, as the caller reads it; undefined when the revision has no such page. */
async function pageIn(deps: ChangeRequestsDeps, caller: Caller, spaceId: string, revisionId: string, pageId: string): Promise<Omit<pb.CommentTargetPage, 'outdated'> | undefined> {
  try {
    const r = await deps.content.revisions.getPage({ revision: { spaceId, revisionId, metadata: false }, pageId, path: '', format: 'document', evaluated: false }, { caller });
    const page = r.page;
    if (!page) return undefined;
    return { id: page.id, title: page.title, path: r.path, emoji: page.emoji, icon: page.icon };
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** A comment may target a page only if the change request's head has it (400 otherwise). */
export async function assertPageInHead(deps: ChangeRequestsDeps, caller: Caller, cr: ChangeRequestRecord, pageId: string): Promise<void> {
  if (!(await pageIn(deps, caller, cr.spaceId, cr.revision, pageId))) throw invalid(`page ${pageId} is not a page of the change request.`);
}

/**
 * Comments with their target page described: as the change request's head has it now, or, when the
 * head no longer has it (`outdated`), as the revision the comment was posted on had it. One lookup
 * per distinct page.
 */
export async function withTargetPages(deps: ChangeRequestsDeps, caller: Caller, cr: ChangeRequestRecord, comments: pb.Comment[]): Promise<pb.Comment[]> {
  const lookups = new Map<string, Promise<pb.CommentTargetPage | undefined>>();
  const lookup = (pageId: string, postedOn: string) => {
    const key = `${pageId}\n${postedOn}`;
    let found = lookups.get(key);
    if (!found) {
      const inHead = lookups.get(pageId) ?? pageIn(deps, caller, cr.spaceId, cr.revision, pageId).then((p) => p && { ...p, outdated: false });
      lookups.set(pageId, inHead);
      found = inHead.then(async (p) => p ?? (await pageIn(deps, caller, cr.spaceId, postedOn, pageId).then((old) => old && { ...old, outdated: true })));
      lookups.set(key, found);
    }
    return found;
  };
  return Promise.all(comments.map(async (c) => (c.page ? { ...c, targetPage: await lookup(c.page, c.revision) } : c)));
}
