import type { ChangeRequestsClients } from '@bindery/change-requests/client';
import type { IdentityClients } from '@bindery/identity/client';
import type { Urls } from '@bindery/gateway/identity-routes';
import type { Caller } from '@bindery/platform/grpc';
import { people } from './people';
import { changeRequestJson, usersOfChangeRequest } from './representations';

type Call = { caller: Caller; deadline: Date };
export type ChangeRequestJson = ReturnType<typeof changeRequestJson>;

/** The official ChangeRequest of a space by id, read as the caller (who must be able to read the space). */
export type ChangeRequestOf = (spaceId: string, changeRequestId: string, call: Call) => Promise<ChangeRequestJson>;

/** Reads the change request from change-requests (it authorizes) and names its people through identity. */
export function changeRequestReader(crs: ChangeRequestsClients['changeRequests'], identity: IdentityClients['identity'], urls: Urls): ChangeRequestOf {
  return async (spaceId, changeRequestId, call) => {
    const cr = await crs.getChangeRequest({ spaceId, changeRequest: changeRequestId }, call);
    return changeRequestJson(cr, await people(identity, usersOfChangeRequest(cr), call, urls), urls);
  };
}
