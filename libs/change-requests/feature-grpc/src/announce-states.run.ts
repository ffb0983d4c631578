import { ChangeRequestEvents as E } from '@bindery/change-requests/client';
import { internalCaller } from '@bindery/platform/grpc';
import type { RunContext } from '@bindery/platform/runs';
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
  let changeRequests = 0;
  for (let after = ''; !ctx?.signal.aborted;) {
    const page = await deps.changeRequests.statusesAfter(after, PAGE);
    for (const cr of page) {
      const event = E.updated.create(
        SOURCE,
        cr.spaceId,
        { organizationId: cr.organizationId, spaceId: cr.spaceId, changeRequestId: cr._id, number: cr.number, status: cr.status, revision: cr.revision, changedFields: [], actor },
        cr.organizationId,
      );
      if (await deps.changeRequests.announce(cr._id, cr.status, [event])) changeRequests++;
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1]._id;
  }
  let comments = 0;
  for (let after = ''; !ctx?.signal.aborted;) {
    const page = await deps.comments.statusesAfter(after, PAGE);
    for (const c of page) {
      const event = E.commentUpdated.create(
        SOURCE,
        c.spaceId,
        { organizationId: c.organizationId, spaceId: c.spaceId, changeRequestId: c.changeRequestId, commentId: c._id, status: c.status, actor },
        c.organizationId,
      );
      if (await deps.comments.announce(c._id, c.status, [event])) comments++;
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1]._id;
  }
  return { changeRequests, comments };
}
