import { ChangeRequestEvents as E } from '@bindery/change-requests/client';
import type { ChangeRequestRecord } from '@bindery/change-requests/domain';
import { SOURCE } from './deps';

type Kind = 'created' | 'updated' | 'merged' | 'archived';

/** What the events say of a change request (a record read whole, or the fields its state announcement reads). */
type ChangeRequestFields = Pick<ChangeRequestRecord, '_id' | 'organizationId' | 'spaceId' | 'number' | 'status' | 'revision' | 'revisionMerged'>;

/** The `change_requests.change_request.*` event of a change request after a change. */
export function changeRequestEvent(kind: Kind, cr: ChangeRequestFields, changedFields: string[], actor: string) {
  return E[kind].create(
    SOURCE,
    cr.spaceId,
    {
      organizationId: cr.organizationId,
      spaceId: cr.spaceId,
      changeRequestId: cr._id,
      number: cr.number,
      status: cr.status,
      revision: cr.revision,
      changedFields,
      revisionMerged: cr.revisionMerged,
      actor,
    },
    cr.organizationId,
  );
}
