import {
  ChangeRequestRecord,
  ChangeRequestStatus,
  CHANGE_REQUEST_STATUSES,
  assertEditable,
  assertMay,
  checkStatus,
  checkSubject,
  statusEventOf,
} from '@bindery/change-requests/domain';
import type { Caller } from '@bindery/platform/grpc';
import { invalid, notFound } from '@bindery/platform/errors';
import { changeRequestsV1 as pb, documentFromMessage } from '@bindery/shared/contracts';
import { newId } from '@bindery/shared/ids';
import { decodeCursor, resolveLimit, toPage } from '@bindery/shared/pagination';
import type { Document } from '@bindery/shared/markdown';
import { changeRequestEvent } from './change-request-events';
import { changeRequestMessage, changeRequestMessages, oneMessage } from './change-request-json';
import { ChangeRequestsDeps, nowOf } from './deps';
import { spaceAccess, visibleChangeRequest } from './space-access-from-content';

/** Opens a change request on the space's current revision (editors). */
export async function createChangeRequest(deps: ChangeRequestsDeps, caller: Caller, req: pb.CreateChangeRequestRequest): Promise<pb.ChangeRequest> {
  const access = await spaceAccess(deps, caller, req.spaceId);
  assertMay(access, 'edit');
  const subject = checkSubject(req.subject ?? '');
  const now = nowOf(deps);
  const number = await deps.changeRequests.nextNumber(access.spaceId);
  const cr: ChangeRequestRecord = {
    _id: newId(),
    organizationId: access.organizationId,
    spaceId: access.spaceId,
    number,
    status: 'open',
    subject,
    createdBy: caller.userId,
    createdAt: now,
    updatedAt: now,
    revision: access.revision,
    revisionInitial: access.revision,
    contributors: [caller.userId],
    requestedReviewers: [],
  };
  await deps.changeRequests.insert(cr, [changeRequestEvent('created', cr, [], caller.userId)]);
  // a change request just opened has no comments: no count to read
  return changeRequestMessage(cr, 0, access.revision);
}

export async function getChangeRequest(deps: ChangeRequestsDeps, caller: Caller, req: pb.ChangeRequestRef): Promise<pb.ChangeRequest> {
  const { access, cr } = await visibleChangeRequest(deps, caller, req.spaceId, req.changeRequest);
  // a site token reads a merged change request only (a merge revision of its spaces names it): the others are not there for it
  if (caller.site && cr.status !== 'merged') throw notFound('Change request');
  return oneMessage(deps, cr, access.revision);
}

function statusesOf(given: string[]): ChangeRequestStatus[] {
  for (const s of given) if (!CHANGE_REQUEST_STATUSES.includes(s as ChangeRequestStatus)) throw invalid('status must be one of draft, open, archived, merged.');
  return given.length ? ([...new Set(given)] as ChangeRequestStatus[]) : ['open'];
}

/** The spaces of an organization the caller can read, with their current revisions (content decides). */
async function visibleSpaces(deps: ChangeRequestsDeps, caller: Caller, organizationId: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let page: string | undefined;
  do {
    const r = await deps.content.spaces.listSpaces({ organizationId, page: { page: page ?? '', limit: 1000 } }, { caller });
    for (const s of r.items) out.set(s.id, s.revision);
    page = r.page?.nextPage;
  } while (page);
  return out;
}

/** A space's change requests (readers), or an organization's in the spaces the caller can read (members). */
export async function listChangeRequests(deps: ChangeRequestsDeps, caller: Caller, req: pb.ListChangeRequestsRequest): Promise<pb.ListChangeRequestsResponse> {
  const statuses = statusesOf(req.statuses);
  const order = req.orderBy === 'createdAt' ? 'createdAt' : 'updatedAt';
  let revisions: Map<string, string>;
  if (req.spaceId) {
    const access = await spaceAccess(deps, caller, req.spaceId);
    revisions = new Map([[access.spaceId, access.revision]]);
  } else {
    revisions = await visibleSpaces(deps, caller, req.organizationId);
    if (req.space) revisions = revisions.has(req.space) ? new Map([[req.space, revisions.get(req.space)!]]) : new Map();
  }
  const query = {
    spaceIds: [...revisions.keys()],
    statuses,
    creator: req.creator || undefined,
    contributor: req.contributor || undefined,
    requestedReviewer: req.requestedReviewer || undefined,
  };
  const limit = resolveLimit(req.page?.limit);
  const cursor = decodeCursor(req.page?.page || undefined);
  const rows = await deps.changeRequests.page(query, order, cursor, limit);
  const count = await deps.changeRequests.count(query);
  const page = toPage(
    rows,
    limit,
    count,
    (cr) => ({ k: cr[order], id: cr._id }),
    (cr) => cr,
  );
  return { items: await changeRequestMessages(deps, page.items, revisions), page: { count: page.count, nextPage: page.nextPage } };
}

/** Subject, description, status (editors; never on a merged change request). */
export async function updateChangeRequest(deps: ChangeRequestsDeps, caller: Caller, req: pb.UpdateChangeRequestRequest): Promise<pb.ChangeRequest> {
  const { access, cr } = await visibleChangeRequest(deps, caller, req.ref!.spaceId, req.ref!.changeRequest);
  assertMay(access, 'edit');
  assertEditable(cr);
  const set: Partial<ChangeRequestRecord> = {};
  const unset: Array<keyof ChangeRequestRecord> = [];
  if (req.subject !== undefined) set.subject = checkSubject(req.subject);
  if (req.description) set.description = descriptionOf(documentFromMessage(req.description));
  else if (req.clearDescription) unset.push('description');
  if (req.status !== undefined) set.status = checkStatus(req.status);
  const fields = [...Object.keys(set), ...unset];
  if (!fields.length) return oneMessage(deps, cr, access.revision);
  set.updatedAt = nowOf(deps);
  const after = { ...cr, ...set, ...(unset.length ? { description: undefined } : {}) };
  const kind = set.status ? statusEventOf(cr.status, set.status) : 'updated';
  const updated = await deps.changeRequests.updateFields(cr._id, set, unset, [changeRequestEvent(kind, after, fields, caller.userId)]);
  if (!updated) assertEditable({ status: 'merged' });
  return oneMessage(deps, updated!, access.revision);
}

function descriptionOf(doc: { object?: unknown; nodes?: unknown }): Document {
  if (doc.object !== 'document' || !Array.isArray(doc.nodes)) throw invalid('description must be a document ({object: "document", data, nodes}).');
  return doc as unknown as Document;
}
