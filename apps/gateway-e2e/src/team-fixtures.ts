import { SystemUnderTest } from '@bindery/shared/testing';
import { createOrganization, createUser, TestUser } from './fixtures';
import { Client, http } from './http-client';

/** An organization of `admin` with one member per entry of `people` (name → role, null = guest). */
export async function organizationWith<K extends string>(sut: SystemUnderTest, admin: TestUser, people: Record<K, string | null>) {
  const orgId = await createOrganization(sut, admin, 'Teams org');
  const api = http(sut.baseUrl, admin.token);
  const users = {} as Record<K, TestUser>;
  for (const [name, role] of Object.entries(people) as Array<[K, string | null]>) {
    const user = await createUser(sut, name);
    const res = await api.post(`/v1/orgs/${orgId}/invites`, { emails: [{ email: user.email, role }] });
    if (res.status !== 200 || res.body.users[0] !== user.id) throw new Error(`invite ${name}: ${res.status} ${JSON.stringify(res.body)}`);
    users[name] = user;
  }
  return { orgId, users };
}

/** Creates a team through the API and returns its id. */
export async function createTeam(client: Client, orgId: string, title: string, members: string[] = []): Promise<string> {
  const res = await client.put(`/v1/orgs/${orgId}/teams`, { title, members });
  if (res.status !== 201) throw new Error(`create team: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}
