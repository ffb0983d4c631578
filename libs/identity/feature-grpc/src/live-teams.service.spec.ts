import { randomBytes } from 'node:crypto';
import { Caller, internalCaller } from '@bindery/platform/grpc';
import { connectIdentity, IdentityClients } from '@bindery/identity/client';
import { ServiceUnderTest, startServiceUnderTest } from '@bindery/shared/testing';
import { identityService } from './identity-server';
import { IdentityDeps } from './identity-deps';

/**
 * Service tier: TeamsService.GetLiveTeams, which another service's copy of identity's team events
 * asks to confirm a "no such team". It answers from the database at once, for service callers only.
 */
describe('identity GetLiveTeams (in process, real MongoDB and Kafka)', () => {
  const adminToken = `svc-admin-${randomBytes(12).toString('hex')}`;
  const service = internalCaller('content');
  let sut: ServiceUnderTest<IdentityDeps>;
  let clients: IdentityClients & { close(): void };
  let owner: Caller;
  let orgId: string;

  beforeAll(async () => {
    sut = await startServiceUnderTest(identityService, { BINDERY_ADMIN_TOKEN: adminToken, BINDERY_ADMIN_EMAIL: 'root@live-teams.test' });
    clients = connectIdentity(sut.address, 5000);
    const admin = await clients.identity.authenticate({ token: adminToken });
    const user = await clients.identity.createUser({ email: `owner-${randomBytes(3).toString('hex')}@live-teams.test`, displayName: 'Owner' }, { caller: admin });
    owner = { userId: user.id, isInstanceAdmin: false };
    orgId = (await clients.identity.createOrganization({ title: 'Live teams', emailDomains: [] }, { caller: owner })).id;
  });
  afterAll(async () => {
    clients?.close();
    await sut?.stop();
  });

  const team = async (organizationId: string, title: string) => (await clients.teams.createTeam({ organizationId, title, members: [] }, { caller: owner })).id;
  const live = async (organizationId: string, teamIds: string[]) => (await clients.teams.getLiveTeams({ organizationId, teamIds }, { caller: service })).teamIds;

  test('answers the live teams of the organization among those asked, a team created a moment ago included', async () => {
    const first = await team(orgId, 'First');
    const doomed = await team(orgId, 'Doomed');
    const otherOrg = (await clients.identity.createOrganization({ title: 'Other', emailDomains: [] }, { caller: owner })).id;
    const elsewhere = await team(otherOrg, 'Elsewhere');
    expect((await clients.teams.deleteTeam({ organizationId: orgId, teamId: doomed }, { caller: owner })).deleted).toBe(true);
    const fresh = await team(orgId, 'Fresh');

    // the order asked is kept, duplicates once; deleted teams, other organizations' teams and unknown ids are left out
    expect(await live(orgId, [fresh, doomed, 'no-such-team', elsewhere, first, fresh])).toEqual([fresh, first]);
    expect(await live(otherOrg, [first, elsewhere])).toEqual([elsewhere]);
    expect(await live('no-such-organization', [first])).toEqual([]);
    expect(await live(orgId, [])).toEqual([]);
  });

  test('refuses users (even the organization admin) and more than 100 ids', async () => {
    const first = await team(orgId, 'Asked by a user');
    await expect(clients.teams.getLiveTeams({ organizationId: orgId, teamIds: [first] }, { caller: owner })).rejects.toMatchObject({ kind: 'forbidden' });
    const many = Array.from({ length: 101 }, (_, i) => `team-${i}`);
    await expect(live(orgId, many)).rejects.toMatchObject({ kind: 'invalid' });
  });
});
