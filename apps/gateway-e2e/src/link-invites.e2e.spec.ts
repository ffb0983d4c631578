import { createHash } from 'node:crypto';
import { GitBookAPI, MemberRole } from '@gitbook/api';
import { GitBookAPI as LatestGitBookAPI } from 'gitbook-api-latest';
import { assertErrorBody, assertMatchesSpec, readEvents, startSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createOrganization, createUser, TestUser } from './fixtures';
import { http, walk } from './http-client';

const LIST = '/orgs/{organizationId}/link-invites';
const ONE = '/orgs/{organizationId}/link-invites/{inviteId}';
const JOIN_WITH_INVITE = '/orgs/{organizationId}/invites/{inviteId}';
const INVITE_ID = /^gb_invite_[A-Za-z0-9_-]{43}$/;

describe('link invites through the gateway', () => {
  let sut: SystemUnderTest;
  let ada: TestUser;
  let api: ReturnType<typeof http>;
  let official: GitBookAPI;
  /** every invite id handed out, to prove none leaks */
  const ids = new Set<string>();

  const client = (u: TestUser) => http(sut.baseUrl, u.token);
  async function createInvite(orgId: string, role: string | null): Promise<string> {
    const res = await api.post(`/v1/orgs/${orgId}/link-invites`, { role });
    expect(res.status).toBe(201);
    assertMatchesSpec('0.130.0', 'post', LIST, 201, res.body);
    ids.add(res.body.id);
    return res.body.id;
  }

  beforeAll(async () => {
    sut = await startSystem({}, { services: ['identity'] });
    ada = await createUser(sut, 'ada');
    api = http(sut.baseUrl, ada.token);
    official = new GitBookAPI({ endpoint: sut.baseUrl, authToken: ada.token });
  });
  afterAll(() => sut?.stop());

  it('creates, gets, updates and lists invites with the official client, in the official shapes', async () => {
    const orgId = await createOrganization(sut, ada, 'Client invites');
    const created = await official.orgs.createOrganizationInvite(orgId, { role: MemberRole.Edit });
    expect(created.status).toBe(201);
    assertMatchesSpec('0.130.0', 'post', LIST, 201, created.data);
    // Only the admins see invites, and an admin already has whatever an invite gives.
    expect(created.data).toEqual({ object: 'invite', id: expect.stringMatching(INVITE_ID), role: 'edit', redundant: true });
    const id = created.data.id;
    ids.add(id);

    const got = await official.orgs.getOrganizationInviteLink(orgId, id);
    assertMatchesSpec('0.130.0', 'get', ONE, 200, got.data);
    expect(got.data).toEqual(created.data);

    const updated = await official.orgs.updateOrganizationInviteById(orgId, id, { role: null });
    assertMatchesSpec('0.130.0', 'patch', ONE, 200, updated.data);
    expect(updated.data).toEqual({ object: 'invite', id, role: null, redundant: true });

    const guestInvite = await official.orgs.createOrganizationInvite(orgId, { role: null });
    ids.add(guestInvite.data.id);
    const list = await official.orgs.listOrganizationInviteLinks(orgId);
    assertMatchesSpec('0.130.0', 'get', LIST, 200, list.data);
    expect(list.data.count).toBe(2);
    expect(list.data.items.map((i) => i.id)).toEqual([id, guestInvite.data.id]);

    const deleted = await official.orgs.deleteOrganizationInviteById(orgId, id);
    expect(deleted.status).toBe(205);
    await expect(official.orgs.getOrganizationInviteLink(orgId, id)).rejects.toMatchObject({ code: 404 });
  });

  it('lets a new user join with an invite, with its role, and then see the organization (official client)', async () => {
    const orgId = await createOrganization(sut, ada, 'Join me');
    const cases: Array<[string | null, { admin: boolean; createContent: boolean; listMembers: boolean }]> = [
      ['edit', { admin: false, createContent: false, listMembers: true }],
      ['create', { admin: false, createContent: true, listMembers: true }],
      [null, { admin: false, createContent: false, listMembers: false }],
      ['admin', { admin: true, createContent: true, listMembers: true }],
    ];
    for (const [role, perms] of cases) {
      const inviteId = await createInvite(orgId, role);
      const joiner = await createUser(sut, `joiner-${role ?? 'guest'}`);
      expect((await client(joiner).get(`/v1/orgs/${orgId}`)).status).toBe(404);

      const joined = await new GitBookAPI({ endpoint: sut.baseUrl, authToken: joiner.token }).orgs.joinOrganizationWithInvite(orgId, inviteId);
      expect(joined.status).toBe(200);
      assertMatchesSpec('0.130.0', 'post', JOIN_WITH_INVITE, 200, joined.data);
      expect(joined.data).toEqual({});

      const org = await client(joiner).get(`/v1/orgs/${orgId}`);
      expect(org.status).toBe(200);
      assertMatchesSpec('0.130.0', 'get', '/orgs/{organizationId}', 200, org.body);
      expect({ role, ...org.body.permissions }).toMatchObject({ role, view: true, ...perms });
      const mine = await client(joiner).get('/v1/orgs');
      expect(mine.body.items.map((o: { id: string }) => o.id)).toEqual([orgId]);
    }
  });

  it('is idempotent: joining again changes nothing, even when the invite now gives more', async () => {
    const orgId = await createOrganization(sut, ada, 'Join twice');
    const inviteId = await createInvite(orgId, 'read');
    const joiner = await createUser(sut, 'twice');
    expect((await client(joiner).post(`/v1/orgs/${orgId}/invites/${inviteId}`)).status).toBe(200);
    expect((await api.patch(`/v1/orgs/${orgId}/link-invites/${inviteId}`, { role: 'admin' })).body.role).toBe('admin');
    const again = await client(joiner).post(`/v1/orgs/${orgId}/invites/${inviteId}`);
    expect(again.status).toBe(200);
    assertMatchesSpec('0.130.0', 'post', JOIN_WITH_INVITE, 200, again.body);
    expect((await client(joiner).get(`/v1/orgs/${orgId}`)).body.permissions).toMatchObject({ view: true, admin: false, listMembers: true });
    // The admin who made the invite joins "again" too: still admin.
    expect((await api.post(`/v1/orgs/${orgId}/invites/${inviteId}`)).status).toBe(200);
    expect((await api.get(`/v1/orgs/${orgId}`)).body.permissions.admin).toBe(true);
  });

  it('lets a removed member join again with an invite', async () => {
    const orgId = await createOrganization(sut, ada, 'Come back');
    const inviteId = await createInvite(orgId, 'review');
    const joiner = await createUser(sut, 'returning');
    expect((await client(joiner).post(`/v1/orgs/${orgId}/invites/${inviteId}`)).status).toBe(200);
    expect((await api.delete(`/v1/orgs/${orgId}/members/${joiner.id}`)).status).toBe(204);
    expect((await client(joiner).get(`/v1/orgs/${orgId}`)).status).toBe(404);
    expect((await client(joiner).post(`/v1/orgs/${orgId}/invites/${inviteId}`)).status).toBe(200);
    const org = await client(joiner).get(`/v1/orgs/${orgId}`);
    expect(org.status).toBe(200);
    expect(org.body.permissions).toMatchObject({ view: true, admin: false, listMembers: true, createContent: false });
  });

  it('refuses deleted and unknown invites (404) and disabled invite links (403), changing nothing', async () => {
    const orgId = await createOrganization(sut, ada, 'Refusals');
    const inviteId = await createInvite(orgId, 'edit');
    const joiner = await createUser(sut, 'refused');
    const as = client(joiner);

    expect((await api.patch(`/v1/orgs/${orgId}`, { inviteLinks: false })).body.inviteLinks).toBe(false);
    const disabled = await as.post(`/v1/orgs/${orgId}/invites/${inviteId}`);
    expect(disabled.status).toBe(403);
    assertErrorBody(403, disabled.body);
    expect(disabled.body.error.message).toContain('Invite links are disabled');
    expect((await as.get(`/v1/orgs/${orgId}`)).status).toBe(404);
    // With links disabled, admins still manage invites; only joining waits.
    expect((await api.get(`/v1/orgs/${orgId}/link-invites/${inviteId}`)).status).toBe(200);
    // Nothing about the organization is revealed to a wrong invite, enabled or not.
    for (const wrong of ['gb_invite_never-issued', `${inviteId}x`]) {
      const res = await as.post(`/v1/orgs/${orgId}/invites/${wrong}`);
      expect(res.status).toBe(404);
      assertErrorBody(404, res.body);
      expect(res.body.error.message).not.toContain(wrong);
    }
    expect((await as.post(`/v1/orgs/no-such-org/invites/${inviteId}`)).status).toBe(404);

    expect((await api.patch(`/v1/orgs/${orgId}`, { inviteLinks: true })).body.inviteLinks).toBe(true);
    expect((await api.delete(`/v1/orgs/${orgId}/link-invites/${inviteId}`)).status).toBe(205);
    const deleted = await as.post(`/v1/orgs/${orgId}/invites/${inviteId}`);
    expect(deleted.status).toBe(404);
    assertErrorBody(404, deleted.body);
    expect((await as.get(`/v1/orgs/${orgId}`)).status).toBe(404);
    expect((await as.get('/v1/orgs')).body.count).toBe(0);
  });

  it('deletes idempotently: 205, then 204; a deleted invite is gone everywhere', async () => {
    const orgId = await createOrganization(sut, ada, 'Deletions');
    const inviteId = await createInvite(orgId, 'comment');
    const kept = await createInvite(orgId, 'read');
    expect((await api.delete(`/v1/orgs/${orgId}/link-invites/${inviteId}`)).status).toBe(205);
    const again = await api.delete(`/v1/orgs/${orgId}/link-invites/${inviteId}`);
    expect(again.status).toBe(204);
    expect(again.body).toBeUndefined();
    expect((await api.delete(`/v1/orgs/${orgId}/link-invites/gb_invite_never-issued`)).status).toBe(204);
    for (const res of [await api.get(`/v1/orgs/${orgId}/link-invites/${inviteId}`), await api.patch(`/v1/orgs/${orgId}/link-invites/${inviteId}`, { role: 'admin' })]) {
      expect(res.status).toBe(404);
      assertErrorBody(404, res.body);
    }
    const list = await api.get(`/v1/orgs/${orgId}/link-invites`);
    assertMatchesSpec('0.130.0', 'get', LIST, 200, list.body);
    expect(list.body).toMatchObject({ count: 1, items: [{ id: kept, role: 'read' }] });
  });

  it('pages through invites with limit=2, visiting each once, with the whole count', async () => {
    const orgId = await createOrganization(sut, ada, 'Pages');
    const created = new Set<string>();
    for (let i = 0; i < 5; i++) created.add(await createInvite(orgId, i % 2 ? 'read' : null));
    let pages = 0;
    const seen = (
      await walk<{ id: string }>(api, `/v1/orgs/${orgId}/link-invites`, 2, (body, cursor) => {
        assertMatchesSpec('0.130.0', 'get', LIST, 200, body);
        expect(body.count).toBe(5);
        expect(body.items.length).toBeLessThanOrEqual(2);
        // The cursor is not an invite id.
        for (const id of created) expect(cursor ?? '').not.toContain(id);
        pages++;
      })
    ).map((i) => i.id);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(5);
    expect(new Set(seen)).toEqual(created);
  });

  it('refuses bad input with a 400 naming the field, and changes nothing', async () => {
    const orgId = await createOrganization(sut, ada, 'Bad input');
    const inviteId = await createInvite(orgId, 'edit');
    const cases: Array<[() => Promise<{ status: number; body: { error: { message: string } } }>, string]> = [
      [() => api.post(`/v1/orgs/${orgId}/link-invites`, {}), 'body.role is required'],
      [() => api.post(`/v1/orgs/${orgId}/link-invites`, { role: 'owner' }), 'body.role'],
      [() => api.post(`/v1/orgs/${orgId}/link-invites`, { role: 'edit', expiresAt: '2030-01-01' }), 'unknown field "expiresAt"'],
      [() => api.post(`/v1/orgs/${orgId}/link-invites`, { level: 'read', space: 'space1' }), 'unknown field "level"'],
      [() => api.post(`/v1/orgs/${orgId}/link-invites`), 'A JSON request body is required'],
      [() => api.patch(`/v1/orgs/${orgId}/link-invites/${inviteId}`, {}), 'body.role is required'],
      [() => api.patch(`/v1/orgs/${orgId}/link-invites/${inviteId}`, { role: 5 }), 'body.role'],
      [() => api.patch(`/v1/orgs/${orgId}/link-invites/${inviteId}`, { role: 'read', id: 'other' }), 'unknown field "id"'],
      [() => api.get(`/v1/orgs/${orgId}/link-invites?limit=-1`), 'query.limit'],
      [() => api.get(`/v1/orgs/${orgId}/link-invites?limit=1001`), 'query.limit'],
      [() => api.get(`/v1/orgs/${orgId}/link-invites?page=garbage`), 'page'],
      [() => api.get(`/v1/orgs/${orgId}/link-invites?sort=role`), 'unknown field "sort"'],
      [() => api.get(`/v1/orgs/${orgId}/link-invites/${'x'.repeat(129)}`), 'path.inviteId'],
      [() => api.post(`/v1/orgs/${orgId}/invites/${inviteId}`, { role: 'admin' }), 'takes no request body'],
      [() => api.post(`/v1/orgs/${orgId}/join`, { role: 'admin' }), 'takes no request body'],
    ];
    for (const [call, message] of cases) {
      const res = await call();
      expect({ message, status: res.status }).toEqual({ message, status: 400 });
      assertErrorBody(400, res.body);
      expect(res.body.error.message).toContain(message);
    }
    const list = await api.get(`/v1/orgs/${orgId}/link-invites`);
    expect(list.body).toMatchObject({ count: 1, items: [{ id: inviteId, role: 'edit' }] });
  });

  it('joins by e-mail domain with the default role (POST /v1/orgs/{orgId}/join, spec 0.202.0)', async () => {
    // An admin may claim only the domain of their own address.
    const founder = await createUser(sut, 'founder', 'joiners.example');
    const orgId = await createOrganization(sut, founder, 'Domain joiners');
    expect((await client(founder).patch(`/v1/orgs/${orgId}`, { emailDomains: ['joiners.example'], defaultRole: 'comment' })).status).toBe(200);
    const admin = http(sut.baseUrl, sut.adminToken);
    const user = await admin.post('/admin/users', { email: `Grace-${Date.now()}@Joiners.Example`, displayName: 'Grace' });
    expect(user.status).toBe(201);
    const token = (await admin.post(`/admin/users/${user.body.id}/tokens`, {})).body.token as string;

    const latest = new LatestGitBookAPI({ endpoint: sut.baseUrl, authToken: token });
    const joined = await latest.orgs.joinOrganization(orgId);
    expect(joined.status).toBe(204);
    const org = await http(sut.baseUrl, token).get(`/v1/orgs/${orgId}`);
    expect(org.body.permissions).toMatchObject({ view: true, admin: false, listMembers: true, createContent: false });
    // Again: nothing changes.
    expect((await http(sut.baseUrl, token).post(`/v1/orgs/${orgId}/join`)).status).toBe(204);
    expect((await http(sut.baseUrl, token).get('/v1/orgs')).body.count).toBe(1);

    // Another domain, or no such organization: nothing is revealed.
    const outsider = await createUser(sut, 'outsider');
    for (const path of [`/v1/orgs/${orgId}/join`, '/v1/orgs/no-such-org/join']) {
      const res = await client(outsider).post(path);
      expect(res.status).toBe(404);
      assertErrorBody(404, res.body);
    }
    expect((await client(outsider).get(`/v1/orgs/${orgId}`)).status).toBe(404);
  });

  it('records link-invite and member events, naming invites by a reference, never by their id', async () => {
    const orgId = await createOrganization(sut, ada, 'Events');
    const inviteId = await createInvite(orgId, 'review');
    const ref = createHash('sha256').update(inviteId).digest('base64url');
    await api.patch(`/v1/orgs/${orgId}/link-invites/${inviteId}`, { role: 'edit' });
    const joiner = await createUser(sut, 'evented');
    await client(joiner).post(`/v1/orgs/${orgId}/invites/${inviteId}`);
    await api.delete(`/v1/orgs/${orgId}/link-invites/${inviteId}`);

    const wanted = ['identity.link_invite.created', 'identity.link_invite.updated', 'identity.link_invite.deleted', 'identity.member.added'];
    const events = await readEvents(sut.env.KAFKA_BROKERS.split(','), `${sut.env.KAFKA_NAMESPACE}bindery.identity.v1`, (evs) =>
      wanted.every((t) => evs.some((e) => e.type === t && e.organization === orgId && (t !== 'identity.member.added' || e.subject === `${orgId}:${joiner.id}`))),
    );
    const mine = events.filter((e) => e.organization === orgId);
    for (const verb of ['created', 'updated', 'deleted']) {
      const e = mine.filter((x) => x.type === `identity.link_invite.${verb}`);
      expect(e).toHaveLength(1);
      expect(e[0]).toMatchObject({ subject: `${orgId}:${ref}`, data: { organizationId: orgId, inviteId: ref } });
    }
    const added = mine.filter((e) => e.type === 'identity.member.added' && e.subject === `${orgId}:${joiner.id}`);
    expect(added).toHaveLength(1);
    expect(added[0].data).toEqual({ organizationId: orgId, userId: joiner.id, role: 'edit' });
    // No invite id handed out in this whole file is in any event.
    const all = JSON.stringify(events);
    for (const id of ids) expect(all).not.toContain(id);
  });

  it('never writes an invite id to the logs', () => {
    expect(ids.size).toBeGreaterThan(10);
    const logs = [...sut.apps.identity.output, ...sut.apps.gateway.output].join('\n');
    for (const id of ids) expect(logs).not.toContain(id);
  });
});
