import type { Urls } from '@bindery/gateway/identity-routes';
import { changeRequestsV1 as pb, documentFromMessage } from '@bindery/shared/contracts';
import type { UserJson } from './people';

const enc = encodeURIComponent;

export const changeRequestLocation = (urls: Urls, spaceId: string, id: string) => `${urls.publicUrl}/v1/spaces/${enc(spaceId)}/change-requests/${enc(id)}`;

/** The official ChangeRequest. */
export function changeRequestJson(cr: pb.ChangeRequest, user: (id: string) => UserJson, urls: Urls) {
  return {
    object: 'change-request',
    id: cr.id,
    number: cr.number,
    status: cr.status,
    subject: cr.subject,
    ...(cr.description ? { description: documentFromMessage(cr.description) } : {}),
    createdBy: user(cr.createdBy),
    createdAt: cr.createdAt,
    updatedAt: cr.updatedAt,
    ...(cr.mergedBy ? { mergedBy: user(cr.mergedBy) } : {}),
    ...(cr.mergedAt ? { mergedAt: cr.mergedAt } : {}),
    space: cr.space,
    revision: cr.revision,
    revisionInitial: cr.revisionInitial,
    ...(cr.revisionMergedAncestor ? { revisionMergedAncestor: cr.revisionMergedAncestor } : {}),
    ...(cr.revisionMerged ? { revisionMerged: cr.revisionMerged } : {}),
    comments: cr.comments,
    outdated: cr.outdated,
    urls: { app: `${urls.appUrl}/s/${enc(cr.space)}/~/changes/${cr.number}`, location: changeRequestLocation(urls, cr.space, cr.id) },
  };
}

/** The users a change request names. */
export const usersOfChangeRequest = (cr: pb.ChangeRequest) => [cr.createdBy, cr.mergedBy];
