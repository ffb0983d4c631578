import { assertErrorBody, assertMatchesSpec, SystemUnderTest } from '@bindery/shared/testing';
import { organizationWithEveryRole, RoleName, TestUser } from './fixtures';
import { Client, http, walk } from './http-client';

// Every permission operation below is in both releases; 0.130.0 is the reference.
export const V = '0.130.0';
export const SPACE = '/spaces/{spaceId}';
export const COLLECTION = '/collections/{collectionId}';
export const MEMBER_SPACES = '/orgs/{organizationId}/members/{userId}/spaces';

export type Org = Awaited<ReturnType<typeof organizationWithEveryRole>>;
export type Kind = 'space' | 'collection';
export interface Grant {
  permission: string;
  user?: { id: string; displayName: string; email: string };
  team?: { id: string; title: string };
}

/**
 * The helpers of the content permission tests, over the system `system()` answers (set in the
 * suite's beforeAll): callers, spaces and collections, grants and aggregates read and validated.
 */
export function contentPermissionHelpers(system: () => SystemUnderTest) {
  const as = (user: TestUser) => http(system().baseUrl, user.token);
  const base = (kind: Kind, id: string) => `/v1/${kind === 'space' ? 'spaces' : 'collections'}/${id}`;
  const specBase = (kind: Kind) => (kind === 'space' ? SPACE : COLLECTION);

  /** An organization with a member per role (content answers for each of them on their next request). */
  const contentOrg = (): Promise<Org> => organizationWithEveryRole(system());

  async function createSpace(client: Client, orgId: string, body: Record<string, unknown> = {}): Promise<string> {
    const res = await client.post(`/v1/orgs/${orgId}/spaces`, { title: 'A space', ...body });
    if (res.status !== 201) throw new Error(`create space: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id;
  }

  async function createCollection(client: Client, orgId: string, body: Record<string, unknown> = {}): Promise<string> {
    const res = await client.post(`/v1/orgs/${orgId}/collections`, { title: 'A collection', ...body });
    if (res.status !== 201) throw new Error(`create collection: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id;
  }

  async function setDefaultLevel(client: Client, kind: Kind, id: string, defaultLevel: string | null) {
    const res = await client.patch(base(kind, id), { defaultLevel });
    expect(res.status).toBe(200);
    expect(res.body.defaultLevel).toBe(defaultLevel);
  }

  /** A 204 or 205 answer: no body. */
  async function expectEmpty(promise: Promise<{ status: number; body: unknown }>, status: 204 | 205) {
    const res = await promise;
    expect({ status: res.status, body: res.body }).toEqual({ status, body: undefined });
  }

  /** A refusal in the error shape, with the status (and, if given, words of the message). */
  async function expectError(promise: Promise<{ status: number; body: { error?: { message?: string } } }>, status: number, message?: string) {
    const res = await promise;
    expect({ status: res.status, body: res.body }).toMatchObject({ status });
    assertErrorBody(status, res.body);
    if (message) expect(res.body.error!.message).toContain(message);
  }

  /** The direct grants to users (or teams) of a space or collection, validated, as [id, permission] pairs sorted by id. */
  async function grants(client: Client, kind: Kind, id: string, principals: 'users' | 'teams'): Promise<Array<[string, string]>> {
    const res = await client.get(`${base(kind, id)}/permissions/${principals}`);
    expect(res.status).toBe(200);
    assertMatchesSpec(V, 'get', `${specBase(kind)}/permissions/${principals}`, 200, res.body);
    expect(res.body.count).toBe(res.body.items.length);
    return (res.body.items as Grant[]).map((g) => [(g.user ?? g.team)!.id, g.permission] as [string, string]).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  }

  /** Everyone's effective role (aggregate), validated, following every page; the count of each page is the whole count. */
  async function aggregate(client: Client, kind: Kind, id: string, role?: string): Promise<Record<string, string>> {
    let count = -1;
    const items = await walk<Grant>(client, `${base(kind, id)}/permissions/aggregate${role ? `?role=${role}` : ''}`, 3, (body) => {
      assertMatchesSpec(V, 'get', `${specBase(kind)}/permissions/aggregate`, 200, body);
      if (count < 0) count = body.count;
      expect(body.count).toBe(count);
    });
    expect(items).toHaveLength(count);
    const out: Record<string, string> = {};
    for (const item of items) {
      expect(out[item.user!.id]).toBeUndefined();
      out[item.user!.id] = item.permission;
    }
    return out;
  }

  /** What `user` may do on the space: its `permissions`, or the status when they cannot read it. */
  async function spaceAs(user: TestUser, spaceId: string): Promise<Record<string, boolean> | number> {
    const res = await as(user).get(`/v1/spaces/${spaceId}`);
    if (res.status !== 200) {
      assertErrorBody(res.status, res.body);
      return res.status;
    }
    assertMatchesSpec(V, 'get', SPACE, 200, res.body);
    return res.body.permissions;
  }

  const byRole = (org: Org, roles: Partial<Record<RoleName, string>>) => Object.fromEntries(Object.entries(roles).map(([r, p]) => [org.members[r as RoleName].id, p]));
  return { as, base, specBase, contentOrg, createSpace, createCollection, setDefaultLevel, expectEmpty, expectError, grants, aggregate, spaceAs, byRole };
}
