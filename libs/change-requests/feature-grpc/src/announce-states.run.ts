import { ChangeRequestEvents as E } from '@bindery/change-requests/client';
import { internalCaller } from '@bindery/platform/grpc';
import type { RunContext } from '@bindery/platform/runs';
import { changeRequestEvent } from './change-request-events';
import { SOURCE, type ChangeRequestsDeps } from './deps';

/** The run that announces every change request and live comment as it is (once per database: ANNOUNCE_STATES_KEY). */
export const ANNOUNCE_STATES_RUN = 'change-requests.announce-states';
/** Enqueued at every start with this idempotency key, so it runs once; a new key announces again. */
export const ANNOUNCE_STATES_KEY = 'states-v1';

const PAGE = 500;

/**
 * Publishes the current status of every change request (`change_request.updated` with no changed
 * fields) and of every live comment (`comment.updated` with its status), each recorded on its own
 * document only if its status is still the one read, so it follows that document's earlier events
 * and precedes its later ones. Consumers that keep a copy (content's counts of a space) learn what
 * was there before they listened; announcing again is harmless (each one states what is).
 */
export async function announceStates(deps: ChangeRequestsDeps, ctx?: Pick<RunContext, 'signal'>): Promise<{ changeRequests: number; comments: number }> {
  const actor = internalCaller('change-requests').userId;
  const changeRequests = await eachInPages(
    ctx,
    (after) => deps.changeRequests.statusesAfter(after, PAGE),
    (cr) => deps.changeRequests.announce(cr._id, cr.status, [changeRequestEvent('updated', cr, [], actor)]),
  );
  const comments = await eachInPages(
    ctx,
    (after) => deps.comments.statusesAfter(after, PAGE),
    (c) => {
      const data = { organizationId: c.organizationId, spaceId: c.spaceId, changeRequestId: c.changeRequestId, commentId: c._id, status: c.status, actor };
      return deps.comments.announce(c._id, c.status, [E.commentUpdated.create(SOURCE, c.spaceId, data, c.organizationId)]);
    },
  );
  return { changeRequests, comments };
}

/** Walks records in id order a page at a time until the run is told to stop; counts those `announce` recorded. */
async function eachInPages<R extends { _id: string }>(
  ctx: Pick<RunContext, 'signal'> | undefined,
  pageAfter: (after: string) => Promise<R[]>,
  announce: (r: R) => Promise<boolean>,
): Promise<number> {
  let n = 0;
  for (let after = ''; !ctx?.signal.aborted;) {
    const page = await pageAfter(after);
    for (const r of page) if (await announce(r)) n++;
    if (page.length < PAGE) break;
    after = page[page.length - 1]._id;
  }
  return n;
}
