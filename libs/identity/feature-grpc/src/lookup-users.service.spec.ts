import { randomBytes } from 'node:crypto';
import type { Caller } from '@bindery/platform/grpc';
import { connectIdentity, IdentityClients } from '@bindery/identity/client';
import { ServiceUnderTest, startServiceUnderTest } from '@bindery/shared/testing';
import { identityService } from './identity-server';
import { IdentityDeps } from './identity-deps';

/**
 * Service tier: LookupUsers (the profiles behind other services' user ids, as the gateway asks for
 * them) answers only the users the caller may know, through identity's typed gRPC client.
 */
describe('identity LookupUsers (in process, real MongoDB and Kafka)', () => {
  const adminToken = `svc-admin-${randomBytes(12).toString('hex')}`;
  let service: ServiceUnderTest<IdentityDeps>;
  let clients: IdentityClients & { close(): void };
  let admin: Caller;

  beforeAll(async () => {
    service = await startServiceUnderTest(identityService, { BINDERY_ADMIN_TOKEN: adminToken, BINDERY_ADMIN_EMAIL: 'root@lookup.test' });
    clients = connectIdentity(service.address, 5000);
    admin = await clients.identity.authenticate({ token: adminToken });
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });

  const newUser = async (name: string) => {
    const user = await clients.identity.createUser({ email: `${name}-${randomBytes(3).toString('hex')}@lookup.test`, displayName: name }, { caller: admin });
    return { caller: { userId: user.id, isInstanceAdmin: false } satisfies Caller, user };
  };
  /** An organization created by `owner`, with `members` added at once (they have accounts) with `role` (null: guests). */
  const organizationOf = async (owner: Caller, members: Array<{ email: string }>, role: string | null = 'read') => {
    const org = await clients.identity.createOrganization({ title: 'Lookup', emailDomains: [] }, { caller: owner });
    if (members.length) {
      await clients.identity.inviteMembers(
        { organizationId: org.id, invitees: members.map((m) => ({ email: m.email })), role: { value: role ?? undefined }, sso: false },
        { caller: owner },
      );
    }
    return org;
  };
  const lookup = async (caller: Caller, userIds: string[]) => (await clients.identity.lookupUsers({ userIds }, { caller })).users.map((u) => u.id).sort();

  test('answers the caller and the users sharing an organization with them; others and unknown ids are left out', async () => {
    const alice = await newUser('alice');
    const bob = await newUser('bob');
    const carol = await newUser('carol');
    const stranger = await newUser('stranger');
    await organizationOf(alice.caller, [bob.user]);
    // Carol shares an organization with Alice as a guest (no role) only.
    await organizationOf(carol.caller, [alice.user], null);

    const ids = [alice.user.id, bob.user.id, carol.user.id, stranger.user.id, 'no-such-user'];
    expect(await lookup(alice.caller, ids)).toEqual([alice.user.id, bob.user.id, carol.user.id].sort());
    // Bob shares Alice's organization only; the stranger knows nobody but themself.
    expect(await lookup(bob.caller, ids)).toEqual([alice.user.id, bob.user.id].sort());
    expect(await lookup(stranger.caller, ids)).toEqual([stranger.user.id]);
  });

  test('answers the profile fields, each user once', async () => {
    const dave = await newUser('dave');
    const erin = await newUser('erin');
    await organizationOf(dave.caller, [erin.user]);
    const r = await clients.identity.lookupUsers({ userIds: [erin.user.id, erin.user.id, ''] }, { caller: dave.caller });
    expect(r.users).toEqual([{ id: erin.user.id, displayName: 'erin', email: erin.user.email }]);
  });

  test("finds users through every one of the caller's organizations, however many", async () => {
    const owner = await newUser('owner');
    // More organizations than one step of the walk searches, each shared with a different user.
    const others = await Promise.all(Array.from({ length: 25 }, (_, i) => newUser(`member${i}`)));
    for (const other of others) await organizationOf(owner.caller, [other.user]);
    const ids = others.map((o) => o.user.id);
    expect(await lookup(owner.caller, ids)).toEqual([...ids].sort());
    expect(await lookup(others[0].caller, ids)).toEqual([ids[0]]);
  });

  test('an instance administrator knows every user', async () => {
    const frank = await newUser('frank');
    const grace = await newUser('grace');
    expect(await lookup(admin, [frank.user.id, grace.user.id, 'no-such-user'])).toEqual([frank.user.id, grace.user.id].sort());
  });

  test('a former member is no longer known through the organization they left', async () => {
    const heidi = await newUser('heidi');
    const ivan = await newUser('ivan');
    const org = await organizationOf(heidi.caller, [ivan.user]);
    expect(await lookup(heidi.caller, [ivan.user.id])).toEqual([ivan.user.id]);
    await clients.members.removeMember({ organizationId: org.id, userId: ivan.user.id }, { caller: heidi.caller });
    expect(await lookup(heidi.caller, [ivan.user.id])).toEqual([]);
  });

  test('takes at most 1000 ids', async () => {
    const judy = await newUser('judy');
    const ids = Array.from({ length: 1001 }, (_, i) => `user-${i}`);
    await expect(clients.identity.lookupUsers({ userIds: ids }, { caller: judy.caller })).rejects.toMatchObject({ kind: 'invalid' });
    await expect(clients.identity.lookupUsers({ userIds: ids.slice(1) }, { caller: judy.caller })).resolves.toEqual({ users: [] });
  });

  test('needs a caller', async () => {
    await expect(clients.identity.lookupUsers({ userIds: [] })).rejects.toMatchObject({ kind: 'unauthenticated' });
  });
});
