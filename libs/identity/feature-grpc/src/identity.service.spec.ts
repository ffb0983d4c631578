import { randomBytes } from 'node:crypto';
import { DomainError } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { connectIdentity, IdentityClients } from '@bindery/identity/client';
import { eventually, ServiceUnderTest, startServiceUnderTest } from '@bindery/shared/testing';
import { identityService } from './identity-server';
import { IdentityDeps } from './identity-deps';

/**
 * Service tier: identity runs in this process on a free port with a fresh database; the use cases
 * are exercised through its typed gRPC clients, as the gateway and other services call them.
 */
describe('identity service (in process, real MongoDB and Kafka)', () => {
  const adminToken = `svc-admin-${randomBytes(12).toString('hex')}`;
  let service: ServiceUnderTest<IdentityDeps>;
  let clients: IdentityClients & { close(): void };
  let admin: Caller;

  beforeAll(async () => {
    service = await startServiceUnderTest(identityService, { BINDERY_ADMIN_TOKEN: adminToken, BINDERY_ADMIN_EMAIL: 'root@svc.test' });
    clients = connectIdentity(service.address, 5000);
    admin = await clients.identity.authenticate({ token: adminToken });
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });

  const newUser = async (name: string) => {
    const user = await clients.identity.createUser({ email: `${name}-${randomBytes(3).toString('hex')}@svc.test`, displayName: name }, { caller: admin });
    return { userId: user.id, isInstanceAdmin: false } satisfies Caller;
  };

  test('refuses every call without a caller except the public one', async () => {
    await expect(clients.identity.getCurrentUser({})).rejects.toMatchObject({ kind: 'unauthenticated' });
    await expect(clients.members.listMembers({ organizationId: 'x', order: '', sort: '', search: '' } as never)).rejects.toBeInstanceOf(DomainError);
    await expect(clients.identity.authenticate({ token: 'not-a-token' })).rejects.toMatchObject({ kind: 'unauthenticated' });
    expect(admin).toMatchObject({ isInstanceAdmin: true });
  });

  test('the creator of an organization is its admin; another user cannot see it', async () => {
    const alice = await newUser('alice');
    const bob = await newUser('bob');
    const org = await clients.identity.createOrganization({ title: 'Service tier', emailDomains: [] }, { caller: alice });
    expect((await clients.identity.getOrganization({ organizationId: org.id }, { caller: alice })).permissions?.admin).toBe(true);
    await expect(clients.identity.getOrganization({ organizationId: org.id }, { caller: bob })).rejects.toMatchObject({ kind: 'not_found' });
    const member = await clients.members.getMember({ organizationId: org.id, userId: alice.userId }, { caller: alice });
    expect(member.role).toBe('admin');
  });

  test('the last admin cannot leave or be demoted', async () => {
    const carol = await newUser('carol');
    const org = await clients.identity.createOrganization({ title: 'Last admin', emailDomains: [] }, { caller: carol });
    await expect(clients.members.removeMember({ organizationId: org.id, userId: carol.userId }, { caller: carol })).rejects.toBeInstanceOf(DomainError);
    await expect(clients.members.updateMemberRole({ organizationId: org.id, userId: carol.userId, role: 'read' } as never, { caller: carol })).rejects.toBeInstanceOf(DomainError);
    expect((await clients.members.getMember({ organizationId: org.id, userId: carol.userId }, { caller: carol })).role).toBe('admin');
  });

  test('an invitation waiting for an address becomes a membership when that user is created (event consumer)', async () => {
    const dave = await newUser('dave');
    const org = await clients.identity.createOrganization({ title: 'Invites', emailDomains: [] }, { caller: dave });
    const email = `erin-${randomBytes(3).toString('hex')}@svc.test`;
    await clients.identity.inviteMembers({ organizationId: org.id, invitees: [{ email }], role: { value: 'edit' }, sso: false } as never, { caller: dave });
    const erin = await clients.identity.createUser({ email, displayName: 'Erin' }, { caller: admin });
    await eventually(async () => {
      const member = await clients.members.getMember({ organizationId: org.id, userId: erin.id }, { caller: dave });
      expect(member.role).toBe('edit');
    });
  });
});
