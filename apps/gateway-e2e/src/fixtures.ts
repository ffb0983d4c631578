import { randomBytes } from 'node:crypto';
import { SystemUnderTest } from '@bindery/shared/testing';
import { http } from './http-client';

export interface TestUser {
  id: string;
  email: string;
  token: string;
}

/** A user (address `<name>-<random>@<domain>`) and an API token for them, made through the instance administration routes. */
export async function createUser(sut: SystemUnderTest, name = 'user', domain = 'example.com'): Promise<TestUser> {
  const admin = http(sut.baseUrl, sut.adminToken);
  const email = `${name}-${randomBytes(4).toString('hex')}@${domain}`;
  const user = await admin.post('/admin/users', { email, displayName: name });
  if (user.status !== 201) throw new Error(`create user: ${user.status} ${JSON.stringify(user.body)}`);
  const token = await admin.post(`/admin/users/${user.body.id}/tokens`, { label: 'tests' });
  if (token.status !== 201) throw new Error(`create token: ${token.status} ${JSON.stringify(token.body)}`);
  return { id: user.body.id, email, token: token.body.token };
}

export async function createOrganization(sut: SystemUnderTest, owner: TestUser, title = 'Test organization'): Promise<string> {
  const res = await http(sut.baseUrl, owner.token).post('/v1/orgs', { title });
  if (res.status !== 201) throw new Error(`create org: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

export const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read', null] as const;
export type RoleName = 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read' | 'guest';

/**
 * An organization with one member per role (guest included) and an admin of another organization;
 * the members' addresses are in `domain`.
 */
export async function organizationWithEveryRole(sut: SystemUnderTest, domain = 'example.com') {
  const owner = await createUser(sut, 'owner', domain);
  const orgId = await createOrganization(sut, owner, 'Matrix');
  const members: Record<RoleName, TestUser> = { admin: owner } as Record<RoleName, TestUser>;
  for (const role of ['create', 'review', 'edit', 'comment', 'read', null] as const) {
    const user = await createUser(sut, role ?? 'guest', domain);
    const res = await http(sut.baseUrl, owner.token).post(`/v1/orgs/${orgId}/invites`, { emails: [{ email: user.email, role }] });
    if (res.status !== 200 || res.body.users[0] !== user.id) throw new Error(`invite ${role}: ${res.status} ${JSON.stringify(res.body)}`);
    members[(role ?? 'guest') as RoleName] = user;
  }
  const stranger = await createUser(sut, 'stranger');
  await createOrganization(sut, stranger, 'Elsewhere');
  return { orgId, members, stranger };
}
