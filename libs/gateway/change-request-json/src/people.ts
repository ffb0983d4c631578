import type { IdentityClients } from '@bindery/identity/client';
import type { Caller } from '@bindery/platform/grpc';
import { userJson, Urls } from '@bindery/gateway/identity-routes';
import { identityV1 } from '@bindery/shared/contracts';

type Call = { caller: Caller; deadline: Date };
export type UserJson = ReturnType<typeof userJson>;

/**
 * Turns user ids into official User objects with one LookupUsers call. Someone the caller may not
 * know any more (they left the organization) is still named by id, with no profile.
 */
export async function people(identity: IdentityClients['identity'], ids: Array<string | undefined>, call: Call, urls: Urls): Promise<(id: string) => UserJson> {
  const wanted = [...new Set(ids.filter((x): x is string => !!x))];
  const found = new Map<string, identityV1.User>();
  if (wanted.length) for (const u of (await identity.lookupUsers({ userIds: wanted }, call)).users) found.set(u.id, u);
  return (id) => {
    const u = found.get(id);
    if (u) return userJson(u, urls);
    return { object: 'user', id, displayName: 'Former member', email: '', urls: { location: `${urls.publicUrl}/v1/users/${encodeURIComponent(id)}` } } as UserJson;
  };
}
