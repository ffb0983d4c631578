import { randomBytes } from 'node:crypto';
import type { Caller } from '@bindery/platform/grpc';
import { connectIdentity, IdentityClients } from '@bindery/identity/client';
import { infraEnv, ServiceUnderTest, startServiceUnderTest } from '@bindery/shared/testing';
import { identityService } from './identity-server';
import { IdentityDeps } from './identity-deps';

interface CommandStarted {
  commandName: string;
  command: Record<string, unknown>;
}

/**
 * Service tier: the whole list's count of a members page is a query only when the list goes on past
 * the page (a first page holding every member is its own count).
 */
describe('identity ListMembers queries (in process, real MongoDB and Kafka)', () => {
  const adminToken = `svc-admin-${randomBytes(12).toString('hex')}`;
  let service: ServiceUnderTest<IdentityDeps>;
  let clients: IdentityClients & { close(): void };
  let admin: Caller;
  const commands: CommandStarted[] = [];

  beforeAll(async () => {
    const url = new URL(infraEnv().MONGODB_URL);
    url.searchParams.set('monitorCommands', 'true');
    service = await startServiceUnderTest(identityService, { BINDERY_ADMIN_TOKEN: adminToken, BINDERY_ADMIN_EMAIL: 'root@members-page.test', MONGODB_URL: url.toString() });
    service.running.mongo.client.on('commandStarted', (e: CommandStarted) => commands.push(e));
    clients = connectIdentity(service.address, 5000);
    admin = await clients.identity.authenticate({ token: adminToken });
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });

  /** The reads of an organization's memberships a call sends (the outbox relay's background work left out). */
  const membersReadsOf = async (organizationId: string, call: () => Promise<unknown>) => {
    const from = commands.length;
    await call();
    return commands
      .slice(from)
      .filter((c) => ['find', 'aggregate', 'count'].includes(c.commandName) && c.command[c.commandName] === 'members' && JSON.stringify(c.command).includes(organizationId))
      .map((c) => c.commandName);
  };
  const counts = (commandNames: string[]) => commandNames.filter((name) => name !== 'find');

  test('a page holding the whole list answers its count without counting; a longer list is counted', async () => {
    const tag = randomBytes(3).toString('hex');
    const owner = await clients.identity.createUser({ email: `owner-${tag}@members-page.test`, displayName: 'Owner' }, { caller: admin });
    const caller = { userId: owner.id, isInstanceAdmin: false };
    const org = await clients.identity.createOrganization({ title: 'Members page', emailDomains: [] }, { caller });
    const invitees = [];
    for (let i = 0; i < 4; i += 1) {
      const user = await clients.identity.createUser({ email: `m${i}-${tag}@members-page.test`, displayName: `Member ${i}` }, { caller: admin });
      invitees.push({ email: user.email });
    }
    await clients.identity.inviteMembers({ organizationId: org.id, invitees, role: { value: 'read' }, sso: false }, { caller });
    const list = (limit: number, page = '') => clients.members.listMembers({ organizationId: org.id, page: { page, limit }, order: '', sort: '', search: '' }, { caller });

    let reply: Awaited<ReturnType<typeof list>> | undefined;
    const whole = await membersReadsOf(org.id, async () => (reply = await list(50)));
    expect(reply!.items).toHaveLength(5);
    expect(reply!.page).toMatchObject({ count: 5 });
    expect(reply!.page?.nextPage ?? '').toBe('');
    expect(counts(whole)).toEqual([]);

    const first = await membersReadsOf(org.id, async () => (reply = await list(2)));
    expect(reply!.items).toHaveLength(2);
    expect(reply!.page).toMatchObject({ count: 5 });
    expect(counts(first)).toEqual(['aggregate']);

    const last = await membersReadsOf(org.id, async () => (reply = await list(4, reply!.page!.nextPage!)));
    expect(reply!.items).toHaveLength(3);
    expect(reply!.page).toMatchObject({ count: 5 });
    expect(counts(last)).toEqual(['aggregate']);
  });
});
