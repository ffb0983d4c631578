import { ChangeRequestRecord, mergeBaseOf } from '@bindery/change-requests/domain';
import { changeRequestsV1 as pb, documentToMessage, type JsonObject } from '@bindery/shared/contracts';
import { ChangeRequestsDeps } from './deps';

/** The message of a change request: `comments` counts its open comments, `outdated` compares with the space's current revision. */
export function changeRequestMessage(cr: ChangeRequestRecord, openComments: number, spaceRevision: string | undefined): pb.ChangeRequest {
  return {
    id: cr._id,
    number: cr.number,
    status: cr.status,
    subject: cr.subject,
    description: cr.description ? documentToMessage(cr.description as unknown as JsonObject) : undefined,
    createdBy: cr.createdBy,
    createdAt: cr.createdAt,
    updatedAt: cr.updatedAt,
    mergedBy: cr.mergedBy,
    mergedAt: cr.mergedAt,
    space: cr.spaceId,
    organization: cr.organizationId,
    revision: cr.revision,
    revisionInitial: cr.revisionInitial,
    revisionMergedAncestor: cr.revisionMergedAncestor,
    revisionMerged: cr.revisionMerged,
    comments: openComments,
    outdated: cr.status !== 'merged' && spaceRevision !== undefined && mergeBaseOf(cr) !== spaceRevision,
    contributors: cr.contributors,
  };
}

/** Messages of several change requests, their comment counts read in one query. */
export async function changeRequestMessages(deps: ChangeRequestsDeps, crs: ChangeRequestRecord[], spaceRevisions: Map<string, string>): Promise<pb.ChangeRequest[]> {
  const counts = crs.length ? await deps.comments.openCounts(crs.map((c) => c._id)) : new Map<string, number>();
  return crs.map((cr) => changeRequestMessage(cr, counts.get(cr._id) ?? 0, spaceRevisions.get(cr.spaceId)));
}

export async function oneMessage(deps: ChangeRequestsDeps, cr: ChangeRequestRecord, spaceRevision: string): Promise<pb.ChangeRequest> {
  return (await changeRequestMessages(deps, [cr], new Map([[cr.spaceId, spaceRevision]])))[0];
}
