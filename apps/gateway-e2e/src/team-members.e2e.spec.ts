import { randomBytes } from 'node:crypto';
import { GitBookAPI, TeamMemberRole } from '@gitbook/api';
import { createKafka } from '@bindery/platform/events';
import { assertErrorBody, assertMatchesSpec, eventually, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createUser, TestUser } from './fixtures';
import { http } from './http-client';
import { Client, walk } from './http-client';
import { createTeam, organizationWith } from './team-fixtures';

const MEMBERS = '/orgs/{organizationId}/teams/{teamId}/members';

describe('team members through the gateway', () => {
  let sut: SystemUnderTest;
  let ada: TestUser;
  let api: Client;

  beforeAll(async () => {
    sut = await sharedSystem();
    ada = await createUser(sut, 'ada');
    api = http(sut.baseUrl, ada.token);
  });

  /** team.members, the list's count, and the ids in it, which must agree. */
  async function membersOf(orgId: string, teamId: string): Promise<string[]> {
    const team = await api.get(`/v1/orgs/${orgId}/teams/${teamId}`);
    const list = await api.get(`/v1/orgs/${orgId}/teams/${teamId}/members?limit=1000`);
    expect(list.status).toBe(200);
    assertMatchesSpec('0.130.0', 'get', MEMBERS, 200, list.body);
    expect(list.body.count).toBe(team.body.members);
    expect(list.body.items).toHaveLength(team.body.members);
    return list.body.items.map((i: { organization: { id: string } }) => i.organization.id).sort();
  }
  const roleIn = async (orgId: string, teamId: string, userId: string) =>
    (await api.get(`/v1/orgs/${orgId}/teams/${teamId}/members?limit=1000`)).body.items.find((i: { organization: { id: string } }) => i.organization.id === userId)?.team.role;
  const teamsCount = async (orgId: string, userId: string) => (await api.get(`/v1/orgs/${orgId}/members/${userId}/teams`)).body.count;

  it('manages members with the official client, in the official shapes', async () => {
    const { orgId, users } = await organizationWith(sut, ada, { bob: 'read', cy: 'edit', dee: null });
    const teamId = await createTeam(api, orgId, 'Client team');
    const client = new GitBookAPI({ endpoint: sut.baseUrl, authToken: ada.token });

    expect((await client.orgs.addMemberToOrganizationTeamById(orgId, teamId, users.bob.id, { role: TeamMemberRole.Owner })).status).toBe(204);
    expect((await client.orgs.updateMembersInOrganizationTeam(orgId, teamId, { add: [users.cy.id, users.dee.email] })).status).toBe(204);
    const list = await client.orgs.listTeamMembersInOrganizationById(orgId, teamId);
    assertMatchesSpec('0.130.0', 'get', MEMBERS, 200, list.data);
    expect(list.data.count).toBe(3);
    const bob = list.data.items.find((i) => i.organization.id === users.bob.id)!;
    expect(bob).toMatchObject({
      organization: { object: 'member', id: users.bob.id, role: 'read', user: { object: 'user', id: users.bob.id, email: users.bob.email }, teams: 1, spaces: 0, disabled: false },
      team: { role: 'owner' },
      permissions: { view: true },
    });
    expect(list.data.items.find((i) => i.organization.id === users.dee.id)).toMatchObject({ organization: { role: null }, team: { role: 'member' } });

    expect((await client.orgs.deleteMemberFromOrganizationTeamById(orgId, teamId, users.cy.id)).status).toBe(204);
    expect(await membersOf(orgId, teamId)).toEqual([users.bob.id, users.dee.id].sort());
    // Again: the member was not part of the team (204, as the official API answers).
    expect((await client.orgs.deleteMemberFromOrganizationTeamById(orgId, teamId, users.cy.id)).status).toBe(204);
  });

  it('pages through team members with limit=2, visiting each once, with the whole count', async () => {
    const people = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`p${i}`, 'read'])) as Record<string, string>;
    const { orgId, users } = await organizationWith(sut, ada, people);
    const ids = Object.values(users).map((u) => u.id);
    const teamId = await createTeam(api, orgId, 'Crowd', ids);
    let pages = 0;
    const seen = await walk<{ organization: { id: string } }>(api, `/v1/orgs/${orgId}/teams/${teamId}/members`, 2, (body) => {
      assertMatchesSpec('0.130.0', 'get', MEMBERS, 200, body);
      expect(body.count).toBe(5);
      pages++;
    });
    expect(pages).toBe(3);
    expect(seen.map((i) => i.organization.id).sort()).toEqual([...ids].sort());
  });

  it('keeps counts true through adds, re-adds, removals and bulk updates', async () => {
    const { orgId, users } = await organizationWith(sut, ada, { a: 'read', b: 'read', c: 'edit', d: 'comment' });
    const t1 = await createTeam(api, orgId, 'One', [users.a.id, users.b.id]);
    const t2 = await createTeam(api, orgId, 'Two', [users.a.id]);
    expect(await membersOf(orgId, t1)).toEqual([users.a.id, users.b.id].sort());
    expect(await teamsCount(orgId, users.a.id)).toBe(2);

    expect((await api.put(`/v1/orgs/${orgId}/teams/${t1}/members/${users.c.id}`, {})).status).toBe(204);
    expect((await api.put(`/v1/orgs/${orgId}/teams/${t1}/members/${users.c.id}`, {})).status).toBe(204);
    expect(await membersOf(orgId, t1)).toHaveLength(3);

    expect((await api.put(`/v1/orgs/${orgId}/teams/${t1}/members`, { add: [users.d.id, users.a.id], remove: [users.b.id] })).status).toBe(204);
    expect(await membersOf(orgId, t1)).toEqual([users.a.id, users.c.id, users.d.id].sort());
    expect((await api.delete(`/v1/orgs/${orgId}/teams/${t1}/members/${users.a.id}`)).status).toBe(204);
    expect(await membersOf(orgId, t1)).toEqual([users.c.id, users.d.id].sort());
    expect(await teamsCount(orgId, users.a.id)).toBe(1);
    // Removed, then added again: one membership, counted once.
    expect((await api.put(`/v1/orgs/${orgId}/teams/${t1}/members`, { add: [users.a.id] })).status).toBe(204);
    expect(await membersOf(orgId, t1)).toEqual([users.a.id, users.c.id, users.d.id].sort());
    expect(await teamsCount(orgId, users.a.id)).toBe(2);
    // The organization member's `teams` agrees (served by the members endpoints).
    expect((await api.get(`/v1/orgs/${orgId}/members/${users.a.id}`)).body.teams).toBe(2);
    // An empty update changes nothing.
    expect((await api.put(`/v1/orgs/${orgId}/teams/${t2}/members`, {})).status).toBe(204);
    expect(await membersOf(orgId, t2)).toEqual([users.a.id]);
  });

  it('removes a user who is both added and removed', async () => {
    const { orgId, users } = await organizationWith(sut, ada, { in: 'read', out: 'read', keep: 'read' });
    const teamId = await createTeam(api, orgId, 'Both', [users.in.id, users.keep.id]);
    const res = await api.put(`/v1/orgs/${orgId}/teams/${teamId}/members`, {
      add: [users.in.id, users.out.id],
      remove: [users.out.email, users.in.id],
      memberships: { [users.in.id]: { role: 'owner' } },
    });
    expect(res.status).toBe(204);
    expect(await membersOf(orgId, teamId)).toEqual([users.keep.id]);
  });

  it('takes e-mail addresses (any case) in add, remove and memberships', async () => {
    const { orgId, users } = await organizationWith(sut, ada, { eva: 'read', fin: 'read' });
    const teamId = await createTeam(api, orgId, 'Mail');
    expect(
      (await api.put(`/v1/orgs/${orgId}/teams/${teamId}/members`, { add: [users.eva.email.toUpperCase(), users.fin.id], memberships: { [users.fin.email]: { role: 'owner' } } }))
        .status,
    ).toBe(204);
    expect(await membersOf(orgId, teamId)).toEqual([users.eva.id, users.fin.id].sort());
    expect(await roleIn(orgId, teamId, users.fin.id)).toBe('owner');
    expect(await roleIn(orgId, teamId, users.eva.id)).toBe('member');
    expect((await api.put(`/v1/orgs/${orgId}/teams/${teamId}/members`, { remove: [users.eva.email] })).status).toBe(204);
    expect(await membersOf(orgId, teamId)).toEqual([users.fin.id]);
  });

  it('refuses bad member updates with a 400 naming the field, and changes nothing', async () => {
    const { orgId, users } = await organizationWith(sut, ada, { bob: 'read', cy: 'read' });
    const outsider = await createUser(sut, 'outsider');
    const teamId = await createTeam(api, orgId, 'Guarded', [users.bob.id]);
    const bulk: Array<[unknown, string]> = [
      [{ add: 'x' }, 'body.add must be array'],
      [{ add: [''] }, 'body.add.0'],
      [{ remove: [42] }, 'body.remove.0 must be string'],
      [{ memberships: { [users.cy.id]: { role: 'boss' } } }, 'must be one of "owner", "member"'],
      [{ memberships: { [users.cy.id]: {} } }, 'role is required'],
      [{ members: [users.cy.id] }, 'unknown field "members"'],
      [{ add: [users.cy.id, outsider.id] }, `add: "${outsider.id}" is not a member of this organization`],
      [{ add: [users.cy.id, 'nobody@nowhere.example'] }, 'add: "nobody@nowhere.example" is not a member'],
      [{ add: [users.cy.id], remove: [outsider.id] }, `remove: "${outsider.id}"`],
      [{ memberships: { [outsider.email]: { role: 'owner' } } }, `memberships: "${outsider.email}"`],
      [{ add: Array.from({ length: 1001 }, (_, i) => `u${i}`) }, 'body.add must NOT have more than 1000 items'],
    ];
    for (const [body, message] of bulk) {
      const res = await api.put(`/v1/orgs/${orgId}/teams/${teamId}/members`, body);
      expect({ body: JSON.stringify(body).slice(0, 80), status: res.status }).toEqual({ body: JSON.stringify(body).slice(0, 80), status: 400 });
      assertErrorBody(400, res.body);
      expect(res.body.error.message).toContain(message);
    }
    const single: Array<[string, unknown, string]> = [
      [users.cy.id, { role: 'admin' }, 'body.role must be one of "owner", "member"'],
      [users.cy.id, { role: 'owner', extra: true }, 'unknown field "extra"'],
      [outsider.id, { role: 'member' }, `userId: "${outsider.id}" is not a member of this organization`],
    ];
    for (const [userId, body, message] of single) {
      const res = await api.put(`/v1/orgs/${orgId}/teams/${teamId}/members/${userId}`, body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(message);
    }
    expect(await membersOf(orgId, teamId)).toEqual([users.bob.id]);
    expect(await roleIn(orgId, teamId, users.bob.id)).toBe('member');
    // Unknown team, or another organization's: 404.
    expect((await api.put(`/v1/orgs/${orgId}/teams/nope/members`, { add: [users.cy.id] })).status).toBe(404);
    // Removing someone who is not in the team, or from a team that does not exist: nothing to remove (204).
    expect((await api.delete(`/v1/orgs/${orgId}/teams/${teamId}/members/${users.cy.id}`)).status).toBe(204);
    expect((await api.delete(`/v1/orgs/${orgId}/teams/nope/members/${users.bob.id}`)).status).toBe(204);
    expect(await membersOf(orgId, teamId)).toEqual([users.bob.id]);
  });

  it('adds without a body as a member, keeps an existing role, and changes it on request', async () => {
    const { orgId, users } = await organizationWith(sut, ada, { bob: 'read' });
    const teamId = await createTeam(api, orgId, 'Bodiless');
    expect((await api.put(`/v1/orgs/${orgId}/teams/${teamId}/members/${users.bob.id}`)).status).toBe(204);
    expect(await roleIn(orgId, teamId, users.bob.id)).toBe('member');
    expect((await api.put(`/v1/orgs/${orgId}/teams/${teamId}/members/${users.bob.id}`, { role: 'owner' })).status).toBe(204);
    expect((await api.put(`/v1/orgs/${orgId}/teams/${teamId}/members/${users.bob.id}`)).status).toBe(204);
    expect(await roleIn(orgId, teamId, users.bob.id)).toBe('owner');
    expect(await membersOf(orgId, teamId)).toEqual([users.bob.id]);
  });

  it("lets a team's owners manage its members, not another team's, and not rename or delete it", async () => {
    const { orgId, users } = await organizationWith(sut, ada, { olga: 'read', pat: 'edit', quin: 'comment' });
    const owned = await createTeam(api, orgId, 'Owned', [users.olga.id]);
    const other = await createTeam(api, orgId, 'Other', [users.olga.id]);
    const olga = http(sut.baseUrl, users.olga.token);
    const ownTeam = async () => (await olga.get(`/v1/orgs/${orgId}`)).body.permissions.ownTeam;
    expect(await ownTeam()).toBe(false);
    expect((await api.put(`/v1/orgs/${orgId}/teams/${owned}/members/${users.olga.id}`, { role: 'owner' })).status).toBe(204);
    expect(await ownTeam()).toBe(true);

    expect((await olga.put(`/v1/orgs/${orgId}/teams/${owned}/members`, { add: [users.pat.id, users.quin.id], memberships: { [users.pat.id]: { role: 'owner' } } })).status).toBe(
      204,
    );
    expect((await olga.delete(`/v1/orgs/${orgId}/teams/${owned}/members/${users.quin.id}`)).status).toBe(204);
    expect(await membersOf(orgId, owned)).toEqual([users.olga.id, users.pat.id].sort());
    expect(await roleIn(orgId, owned, users.pat.id)).toBe('owner');

    for (const res of [
      await olga.put(`/v1/orgs/${orgId}/teams/${other}/members`, { add: [users.pat.id] }),
      await olga.put(`/v1/orgs/${orgId}/teams/${other}/members/${users.pat.id}`, {}),
      await olga.delete(`/v1/orgs/${orgId}/teams/${other}/members/${users.olga.id}`),
      // A team that does not exist has no owners: only organization admins learn there was nothing to remove.
      await olga.delete(`/v1/orgs/${orgId}/teams/nope/members/${users.pat.id}`),
      await olga.patch(`/v1/orgs/${orgId}/teams/${owned}`, { title: 'Mine now' }),
      await olga.delete(`/v1/orgs/${orgId}/teams/${owned}`),
      await olga.put(`/v1/orgs/${orgId}/teams`, { title: 'New' }),
    ]) {
      expect(res.status).toBe(403);
      assertErrorBody(403, res.body);
    }
    expect(await membersOf(orgId, other)).toEqual([users.olga.id]);
    expect((await api.get(`/v1/orgs/${orgId}/teams/${owned}`)).body.title).toBe('Owned');

    // Stepping down, or the team going away, ends the ownership.
    expect((await olga.put(`/v1/orgs/${orgId}/teams/${owned}/members/${users.olga.id}`, { role: 'member' })).status).toBe(204);
    expect(await ownTeam()).toBe(false);
    expect((await api.put(`/v1/orgs/${orgId}/teams/${owned}/members/${users.olga.id}`, { role: 'owner' })).status).toBe(204);
    expect((await api.delete(`/v1/orgs/${orgId}/teams/${owned}`)).status).toBe(204);
    expect(await ownTeam()).toBe(false);
  });

  it('takes a member who leaves the organization out of its teams', async () => {
    const { orgId, users } = await organizationWith(sut, ada, { leaver: 'read', stayer: 'read' });
    const t1 = await createTeam(api, orgId, 'L1', [users.leaver.id, users.stayer.id]);
    const t2 = await createTeam(api, orgId, 'L2', [users.leaver.id]);
    const removed = await api.delete(`/v1/orgs/${orgId}/members/${users.leaver.id}`);
    expect(removed.status).toBe(204);
    // Identity's consumer of identity.member.removed retires the memberships: an event, so not at once.
    await eventually(async () => {
      const team = await api.get(`/v1/orgs/${orgId}/teams/${t2}`);
      if (team.body.members !== 0) throw new Error(`still ${team.body.members} members`);
    });
    expect(await membersOf(orgId, t1)).toEqual([users.stayer.id]);
    expect(await membersOf(orgId, t2)).toEqual([]);
    // Back in the organization: not back in its teams.
    expect((await api.post(`/v1/orgs/${orgId}/invites`, { emails: [{ email: users.leaver.email, role: 'read' }] })).status).toBe(200);
    expect(await teamsCount(orgId, users.leaver.id)).toBe(0);
  });

  it('applies identity.member.removed idempotently, never undoing a later re-add', async () => {
    const { orgId, users } = await organizationWith(sut, ada, { back: 'read' });
    const teamId = await createTeam(api, orgId, 'Replay', [users.back.id]);
    process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';
    const kafka = createKafka(sut.env.KAFKA_BROKERS.split(','), 'teams-test');
    const producer = kafka.producer();
    await producer.connect();
    try {
      const send = (time: string) =>
        producer.send({
          topic: `${sut.env.KAFKA_NAMESPACE}bindery.identity.v1`,
          messages: [{ key: `${orgId}:${users.back.id}`, value: JSON.stringify(removedEvent(orgId, users.back.id, time)) }],
        });
      // A removal from before the membership was made (a late or replayed event) leaves it alone.
      await send('2000-01-01T00:00:00.000Z');
      // A marker event after it, with the same key (same partition, applied in order): once the marker
      // is applied, the stale one has been too.
      const { orgId: markerOrg, users: m } = await organizationWith(sut, ada, { marker: 'read' });
      const markerTeam = await createTeam(api, markerOrg, 'Marker', [m.marker.id]);
      await producer.send({
        topic: `${sut.env.KAFKA_NAMESPACE}bindery.identity.v1`,
        messages: [{ key: `${orgId}:${users.back.id}`, value: JSON.stringify(removedEvent(markerOrg, m.marker.id, new Date().toISOString())) }],
      });
      await eventually(async () => {
        if ((await api.get(`/v1/orgs/${markerOrg}/teams/${markerTeam}`)).body.members !== 0) throw new Error('marker not applied yet');
      });
      expect(await membersOf(orgId, teamId)).toEqual([users.back.id]);
      // The same current removal twice: the membership goes once, and a second delivery is harmless.
      const now = removedEvent(orgId, users.back.id, new Date(Date.now() + 1000).toISOString());
      for (let i = 0; i < 2; i++) await producer.send({ topic: `${sut.env.KAFKA_NAMESPACE}bindery.identity.v1`, messages: [{ key: now.subject, value: JSON.stringify(now) }] });
      await eventually(async () => {
        if ((await api.get(`/v1/orgs/${orgId}/teams/${teamId}`)).body.members !== 0) throw new Error('not removed yet');
      });
      expect(await membersOf(orgId, teamId)).toEqual([]);
    } finally {
      await producer.disconnect();
    }
  });
});

function removedEvent(organizationId: string, userId: string, time: string) {
  return {
    specversion: '1.0',
    id: `test-${randomBytes(8).toString('hex')}`,
    type: 'identity.member.removed',
    source: 'bindery/identity',
    time,
    subject: `${organizationId}:${userId}`,
    organization: organizationId,
    data: { organizationId, userId },
  };
}
