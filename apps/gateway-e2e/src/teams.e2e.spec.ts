import { GitBookAPI } from '@gitbook/api';
import { assertErrorBody, assertMatchesSpec, readEvents, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createUser, TestUser } from './fixtures';
import { http } from './http-client';
import { Client, walk } from './http-client';
import { createTeam, organizationWith } from './team-fixtures';

const TEAMS = '/orgs/{organizationId}/teams';
const TEAM = '/orgs/{organizationId}/teams/{teamId}';

describe('teams through the gateway', () => {
  let sut: SystemUnderTest;
  let ada: TestUser;
  let api: Client;

  beforeAll(async () => {
    sut = await sharedSystem();
    ada = await createUser(sut, 'ada');
    api = http(sut.baseUrl, ada.token);
  });

  it('creates, reads, renames, lists and deletes a team with the official client', async () => {
    const { orgId, users } = await organizationWith(sut, ada, { bob: 'read', cy: 'edit' });
    const client = new GitBookAPI({ endpoint: sut.baseUrl, authToken: ada.token });

    const created = await client.orgs.createOrganizationTeam(orgId, { title: 'Writers', members: [users.bob.id, users.cy.id] });
    expect(created.status).toBe(201);
    assertMatchesSpec('0.130.0', 'put', TEAMS, 201, created.data);
    expect(created.data).toMatchObject({ object: 'team', title: 'Writers', members: 2, spaces: 0, permissions: { admin: true, view: true } });
    const id = created.data.id;

    const got = await client.orgs.getTeamInOrganizationById(orgId, id);
    assertMatchesSpec('0.130.0', 'get', TEAM, 200, got.data);
    expect(got.data).toEqual(created.data);

    const renamed = await client.orgs.updateTeamInOrganizationById(orgId, id, { title: 'Editors' });
    assertMatchesSpec('0.130.0', 'patch', TEAM, 200, renamed.data);
    expect(renamed.data).toMatchObject({ id, title: 'Editors', members: 2, createdAt: created.data.createdAt });

    const list = await client.orgs.listTeamsInOrganizationById(orgId);
    assertMatchesSpec('0.130.0', 'get', TEAMS, 200, list.data);
    expect(list.data.count).toBe(1);
    expect(list.data.items).toEqual([renamed.data]);

    const deleted = await client.orgs.removeTeamFromOrganizationById(orgId, id);
    expect(deleted.status).toBe(204);
    await expect(client.orgs.getTeamInOrganizationById(orgId, id)).rejects.toMatchObject({ code: 404 });
    // Deleting again: the team did not exist (204, as the official API answers).
    const again = await api.delete(`/v1/orgs/${orgId}/teams/${id}`);
    expect(again.status).toBe(204);
    expect(again.body).toBeUndefined();
    expect((await api.delete(`/v1/orgs/${orgId}/teams/never-was`)).status).toBe(204);
    expect((await api.get(`/v1/orgs/${orgId}/teams`)).body.count).toBe(0);
    // The members' team counts follow.
    expect((await api.get(`/v1/orgs/${orgId}/members/${users.bob.id}/teams`)).body.count).toBe(0);
  });

  it('refuses bad input with a 400 naming the field, and changes nothing', async () => {
    const { orgId, users } = await organizationWith(sut, ada, { bob: 'read' });
    const outsider = await createUser(sut, 'outsider');
    const teamId = await createTeam(api, orgId, 'Stable', [users.bob.id]);
    const cases: Array<[unknown, string]> = [
      [{ title: '' }, 'body.title'],
      [{ title: 'x'.repeat(65) }, 'body.title'],
      [{ title: '   ' }, 'body.title must be text of 1 to 64 characters, not all white space'],
      [{}, 'body.title is required'],
      [{ title: 42 }, 'body.title must be string'],
      [{ title: 'Fine', owner: 'me' }, 'unknown field "owner"'],
      [{ title: 'Fine', members: 'x' }, 'body.members must be array'],
      [{ title: 'Fine', members: [users.bob.id, outsider.id] }, `members: "${outsider.id}" is not a member of this organization`],
      [{ title: 'Fine', members: ['nobody-at-all'] }, 'members: "nobody-at-all"'],
    ];
    for (const [body, message] of cases) {
      const res = await api.put(`/v1/orgs/${orgId}/teams`, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      assertErrorBody(400, res.body);
      expect(res.body.error.message).toContain(message);
    }
    for (const [body, message] of [
      [{}, 'body.title is required'],
      [{ title: '' }, 'body.title'],
      [{ title: 'Ok', members: [] }, 'unknown field "members"'],
    ] as Array<[unknown, string]>) {
      const res = await api.patch(`/v1/orgs/${orgId}/teams/${teamId}`, body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(message);
    }
    for (const [query, message] of [
      ['limit=-1', 'query.limit'],
      ['limit=1001', 'query.limit'],
      ['page=garbage', 'page'],
      ['owner=', 'query.owner'],
      [`title=${'t'.repeat(65)}`, 'query.title'],
    ]) {
      const res = await api.get(`/v1/orgs/${orgId}/teams?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(message);
    }
    const list = await api.get(`/v1/orgs/${orgId}/teams`);
    expect(list.body.count).toBe(1);
    expect(list.body.items[0]).toMatchObject({ id: teamId, title: 'Stable', members: 1 });
  });

  it('pages through teams with limit=2, visiting each once, with the whole count', async () => {
    const { orgId } = await organizationWith(sut, ada, {});
    const created = new Set<string>();
    for (let i = 0; i < 7; i++) created.add(await createTeam(api, orgId, `Page team ${7 - i}`));
    let pages = 0;
    const seen = await walk<{ id: string; title: string }>(api, `/v1/orgs/${orgId}/teams`, 2, (body) => {
      assertMatchesSpec('0.130.0', 'get', TEAMS, 200, body);
      expect(body.count).toBe(7);
      expect(body.items.length).toBeLessThanOrEqual(2);
      pages++;
    });
    expect(pages).toBe(4);
    expect(seen).toHaveLength(7);
    expect(new Set(seen.map((t) => t.id))).toEqual(created);
    // In title order.
    expect(seen.map((t) => t.title)).toEqual([...seen.map((t) => t.title)].sort());

    // A filtered list pages the same way, and counts only what matches.
    const filtered = await walk<{ title: string }>(api, `/v1/orgs/${orgId}/teams?title=TEAM%201`, 1, (body) => expect(body.count).toBe(1));
    expect(filtered.map((t) => t.title)).toEqual(['Page team 1']);
  });

  it('filters by title case-insensitively, reading the filter literally', async () => {
    const { orgId } = await organizationWith(sut, ada, {});
    for (const title of ['Alpha (Docs)', 'alpha docs', 'Beta', 'a.b']) await createTeam(api, orgId, title);
    const titles = async (filter: string) => {
      const res = await api.get(`/v1/orgs/${orgId}/teams?title=${encodeURIComponent(filter)}`);
      expect(res.status).toBe(200);
      assertMatchesSpec('0.130.0', 'get', TEAMS, 200, res.body);
      expect(res.body.count).toBe(res.body.items.length);
      return res.body.items.map((t: { title: string }) => t.title);
    };
    expect(await titles('ALPHA')).toEqual(['Alpha (Docs)', 'alpha docs']);
    expect(await titles('(docs)')).toEqual(['Alpha (Docs)']);
    expect(await titles('.')).toEqual(['a.b']);
    expect(await titles('.*')).toEqual([]);
    expect(await titles('')).toHaveLength(4);
  });

  it('lists with owner= the teams that member can manage', async () => {
    const { orgId, users } = await organizationWith(sut, ada, { olga: 'read', pat: 'edit', admina: 'admin' });
    const owned = await createTeam(api, orgId, 'Owned', [users.olga.id, users.pat.id]);
    const other = await createTeam(api, orgId, 'Other', [users.pat.id]);
    expect((await api.put(`/v1/orgs/${orgId}/teams/${owned}/members/${users.olga.id}`, { role: 'owner' })).status).toBe(204);
    const ids = async (owner: string) => {
      const res = await http(sut.baseUrl, users.pat.token).get(`/v1/orgs/${orgId}/teams?owner=${owner}`);
      expect(res.status).toBe(200);
      assertMatchesSpec('0.130.0', 'get', TEAMS, 200, res.body);
      expect(res.body.count).toBe(res.body.items.length);
      return res.body.items.map((t: { id: string }) => t.id).sort();
    };
    expect(await ids(users.olga.id)).toEqual([owned]);
    expect(await ids(users.pat.id)).toEqual([]);
    expect(await ids(users.admina.id)).toEqual([owned, other].sort());
    expect(await ids(ada.id)).toEqual([owned, other].sort());
    expect(await ids('not-a-member')).toEqual([]);
  });

  it("lists a member's teams with their role, filtered and paginated", async () => {
    const { orgId, users } = await organizationWith(sut, ada, { bob: 'read', gus: null });
    const a = await createTeam(api, orgId, 'Docs writers', [users.bob.id, users.gus.id]);
    const b = await createTeam(api, orgId, 'API writers', [users.bob.id]);
    await createTeam(api, orgId, 'Nobody here');
    expect((await api.put(`/v1/orgs/${orgId}/teams/${b}/members/${users.bob.id}`, { role: 'owner' })).status).toBe(204);

    const client = new GitBookAPI({ endpoint: sut.baseUrl, authToken: users.bob.token });
    const mine = await client.orgs.listTeamsForOrganizationMember(orgId, users.bob.id);
    assertMatchesSpec('0.130.0', 'get', '/orgs/{organizationId}/members/{userId}/teams', 200, mine.data);
    expect(mine.data.count).toBe(2);
    expect(mine.data.items.map((i) => [i.team.id, i.member.role, i.team.permissions.admin])).toEqual([
      [b, 'owner', true],
      [a, 'member', false],
    ]);
    const filtered = await client.orgs.listTeamsForOrganizationMember(orgId, users.bob.id, { title: 'DOCS' });
    expect(filtered.data.items.map((i) => i.team.id)).toEqual([a]);
    const pagedIds = (await walk<{ team: { id: string } }>(api, `/v1/orgs/${orgId}/members/${users.bob.id}/teams`, 1, (body) => expect(body.count).toBe(2))).map((i) => i.team.id);
    expect(pagedIds).toEqual([b, a]);

    // A guest sees their own teams (and can open them), not the organization's list.
    const gus = http(sut.baseUrl, users.gus.token);
    const own = await gus.get(`/v1/orgs/${orgId}/members/${users.gus.id}/teams`);
    expect(own.body.items.map((i: { team: { id: string; permissions: object } }) => [i.team.id, i.team.permissions])).toEqual([[a, { admin: false, view: true }]]);
    expect((await gus.get(`/v1/orgs/${orgId}/teams/${a}`)).status).toBe(200);
    expect((await gus.get(`/v1/orgs/${orgId}/teams`)).status).toBe(403);
    expect((await api.get(`/v1/orgs/${orgId}/members/not-a-member/teams`)).status).toBe(404);
  });

  it('records team events in the same writes (outbox)', async () => {
    const { orgId, users } = await organizationWith(sut, ada, { bob: 'read' });
    const teamId = await createTeam(api, orgId, 'Evented', [users.bob.id]);
    await api.patch(`/v1/orgs/${orgId}/teams/${teamId}`, { title: 'Evented, renamed' });
    await api.put(`/v1/orgs/${orgId}/teams/${teamId}/members/${users.bob.id}`, { role: 'owner' });
    await api.put(`/v1/orgs/${orgId}/teams/${teamId}/members/${ada.id}`);
    await api.delete(`/v1/orgs/${orgId}/teams/${teamId}/members/${ada.id}`);
    await api.delete(`/v1/orgs/${orgId}/teams/${teamId}`);
    const wanted = ['team.created', 'team.updated', 'team.deleted', 'team_member.added', 'team_member.updated', 'team_member.removed'].map((t) => `identity.${t}`);
    const events = (
      await readEvents(
        sut.env.KAFKA_BROKERS.split(','),
        `${sut.env.KAFKA_NAMESPACE}bindery.identity.v1`,
        (evs) =>
          evs.filter((e) => e.organization === orgId && e.type === 'identity.team_member.removed').length >= 2 &&
          wanted.every((t) => evs.some((e) => e.type === t && e.organization === orgId)),
      )
    ).filter((e) => e.organization === orgId && e.type.startsWith('identity.team'));
    const summary = events.map((e) => `${e.type} ${e.subject} ${JSON.stringify(e.data)}`);
    expect(summary.sort()).toEqual(
      [
        `identity.team.created ${teamId} ${JSON.stringify({ organizationId: orgId, teamId, title: 'Evented' })}`,
        `identity.team.updated ${teamId} ${JSON.stringify({ organizationId: orgId, teamId, title: 'Evented, renamed' })}`,
        `identity.team.deleted ${teamId} ${JSON.stringify({ organizationId: orgId, teamId })}`,
        `identity.team_member.added ${teamId}:${users.bob.id} ${JSON.stringify({ organizationId: orgId, teamId, userId: users.bob.id, role: 'member' })}`,
        `identity.team_member.updated ${teamId}:${users.bob.id} ${JSON.stringify({ organizationId: orgId, teamId, userId: users.bob.id, role: 'owner' })}`,
        `identity.team_member.added ${teamId}:${ada.id} ${JSON.stringify({ organizationId: orgId, teamId, userId: ada.id, role: 'member' })}`,
        `identity.team_member.removed ${teamId}:${ada.id} ${JSON.stringify({ organizationId: orgId, teamId, userId: ada.id })}`,
        // Deleting the team retires its remaining memberships.
        `identity.team_member.removed ${teamId}:${users.bob.id} ${JSON.stringify({ organizationId: orgId, teamId, userId: users.bob.id })}`,
      ].sort(),
    );
  });
});
