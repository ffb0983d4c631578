import { randomBytes } from 'node:crypto';
import { internalCaller, type Caller } from '@bindery/platform/grpc';
import { connectIdentity, IdentityClients } from '@bindery/identity/client';
import { ServiceUnderTest, startServiceUnderTest } from '@bindery/shared/testing';
import { identityService } from './identity-server';
import { IdentityDeps } from './identity-deps';

/** GetMemberAccess: what another service's projection confirms a "no" with (decisions/0004). */
describe('member access for services (in process, real MongoDB and Kafka)', () => {
  const adminToken = `svc-admin-${randomBytes(12).toString('hex')}`;
  let service: ServiceUnderTest<IdentityDeps>;
  let clients: IdentityClients & { close(): void };
  let admin: Caller;
  const content = internalCaller('content');

  beforeAll(async () => {
    service = await startServiceUnderTest(identityService, { BINDERY_ADMIN_TOKEN: adminToken, BINDERY_ADMIN_EMAIL: 'root@access.test' });
    clients = connectIdentity(service.address, 5000);
    admin = await clients.identity.authenticate({ token: adminToken });
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });

  const newUser = async (name: string): Promise<Caller> => {
    const user = await clients.identity.createUser({ email: `${name}-${randomBytes(3).toString('hex')}@access.test`, displayName: name }, { caller: admin });
    return { userId: user.id, isInstanceAdmin: false };
  };

  test('answers what was acknowledged a moment before: a new organization, a role changed, a team joined, a removal', async () => {
    const owner = await newUser('owner');
    const member = await newUser('member');
    const org = await clients.identity.createOrganization({ title: 'Access', emailDomains: [] }, { caller: owner });
    const access = (userId: string) => clients.members.getMemberAccess({ organizationId: org.id, userId }, { caller: content });
    expect(await access(owner.userId)).toEqual({ member: true, role: 'admin', teamIds: [] });
    expect(await access(member.userId)).toEqual({ member: false, teamIds: [] });

    const [found] = (await clients.identity.lookupUsers({ userIds: [member.userId] }, { caller: admin })).users;
    await clients.identity.inviteMembers({ organizationId: org.id, invitees: [{ email: found.email }], role: { value: 'read' }, sso: false }, { caller: owner });
    expect(await access(member.userId)).toEqual({ member: true, role: 'read', teamIds: [] });
    await clients.members.updateMemberRole({ organizationId: org.id, userId: member.userId, role: { value: 'comment' } }, { caller: owner });
    expect((await access(member.userId)).role).toBe('comment');

    const team = await clients.teams.createTeam({ organizationId: org.id, title: 'Writers', members: [] }, { caller: owner });
    await clients.teams.putTeamMember({ organizationId: org.id, teamId: team.id, userId: member.userId, role: 'member' }, { caller: owner });
    expect((await access(member.userId)).teamIds).toEqual([team.id]);

    await clients.members.removeMember({ organizationId: org.id, userId: member.userId }, { caller: owner });
    expect(await access(member.userId)).toEqual({ member: false, teamIds: [] });
    expect(await clients.members.getMemberAccess({ organizationId: 'no-such-org', userId: owner.userId }, { caller: content })).toEqual({ member: false, teamIds: [] });
  });

  test('refuses users, instance administrators included: only services ask', async () => {
    const owner = await newUser('owner');
    const org = await clients.identity.createOrganization({ title: 'Private', emailDomains: [] }, { caller: owner });
    await expect(clients.members.getMemberAccess({ organizationId: org.id, userId: owner.userId }, { caller: owner })).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(clients.members.getMemberAccess({ organizationId: org.id, userId: owner.userId }, { caller: admin })).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(clients.members.getMemberAccess({ organizationId: org.id, userId: owner.userId })).rejects.toMatchObject({ kind: 'unauthenticated' });
  });
});
