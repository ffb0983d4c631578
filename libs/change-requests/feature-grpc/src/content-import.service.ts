import { IMPORT_BUDGET_MS } from '@bindery/content/client';
import { DomainError } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { assertContentWritable, assertMay, ChangeRequestRecord } from '@bindery/change-requests/domain';
import { changeRequestsV1 as pb } from '@bindery/shared/contracts';
import { changeRequestEvent } from './change-request-events';
import { oneMessage } from './change-request-json';
import { ChangeRequestsDeps, nowOf } from './deps';
import { visibleChangeRequest } from './space-access-from-content';

/**
 * Imports a website into the change request (editors; not merged, archived or being merged): content
 * runs the import (a durable run recording the change request) into a new revision on the head and
 * this call waits for it, then the head moves to it by compare-and-set. An edit
 * that moved the head meanwhile makes this a 409 (the crawl is not repeated behind the caller's back).
 */
export async function importWebsite(deps: ChangeRequestsDeps, caller: Caller, req: pb.ImportWebsiteRequest): Promise<pb.ImportWebsiteResponse> {
  const ref = req.ref!;
  const { access, cr } = await visibleChangeRequest(deps, caller, ref.spaceId, ref.changeRequest);
  assertMay(access, 'edit');
  assertContentWritable(cr);
  if (cr.merging && cr.merging.until > nowOf(deps)) throw new DomainError('conflict', 'The change request is being merged.');
  const r = await deps.content.revisions.importWebsite(
    // a retry of the same import onto the same head finds the same run
    {
      spaceId: cr.spaceId,
      url: req.url,
      baseRevisionId: cr.revision,
      updateCurrent: false,
      changeRequestId: cr._id,
      idempotencyKey: `cr:${cr._id}:${cr.revision}:${req.url}`,
      organizationId: '',
    },
    { caller, deadline: new Date(Date.now() + IMPORT_BUDGET_MS) },
  );
  const set: Partial<ChangeRequestRecord> = { revision: r.revisionId, updatedAt: nowOf(deps) };
  const moved = await deps.changeRequests.moveHead(cr._id, cr.revision, set, caller.userId, [changeRequestEvent('updated', { ...cr, ...set }, ['revision'], caller.userId)]);
  if (!moved) throw new DomainError('conflict', 'The change request changed while the website was imported; import it again.');
  return { changeRequest: await oneMessage(deps, moved, access.revision), revision: r.revisionId, importedResources: r.importedResources, totalResources: r.totalResources };
}
