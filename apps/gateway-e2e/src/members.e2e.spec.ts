import { GitBookAPI } from '@gitbook/api';
import { assertErrorBody, assertMatchesSpec, eventually, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createOrganization, createUser, organizationWithEveryRole, TestUser } from './fixtures';
import { http } from './http-client';

describe('members through the gateway', () => {
  let sut: SystemUnderTest;
  let org: Awaited<ReturnType<typeof organizationWithEveryRole>>;
  let admin: ReturnType<typeof http>;

  beforeAll(async () => {
    sut = await sharedSystem();
    org = await organizationWithEveryRole(sut);
    admin = http(sut.baseUrl, org.members.admin.token);
  });

  const path = (suffix = '') => `/v1/orgs/${org.orgId}/members${suffix}`;

  it('lists members with the official client, valid against the spec', async () => {
    const api = new GitBookAPI({ endpoint: sut.baseUrl, authToken: org.members.read.token });
    const res = await api.orgs.listMembersInOrganizationById(org.orgId);
    assertMatchesSpec('0.130.0', 'get', '/orgs/{organizationId}/members', 200, res.data);
    expect(res.data.count).toBe(7);
    const roles = res.data.items.map((m) => m.role);
    expect(roles.sort()).toEqual(['admin', 'comment', 'create', 'edit', 'read', 'review', null].sort());
    const one = await api.orgs.getMemberInOrganizationById(org.orgId, org.members.edit.id);
    assertMatchesSpec('0.130.0', 'get', '/orgs/{organizationId}/members/{userId}', 200, one.data);
    expect(one.data).toMatchObject({ object: 'member', id: org.members.edit.id, role: 'edit', user: { email: org.members.edit.email }, teams: 0, spaces: 0 });
  });

  it('filters by role (guest included) and searches names and e-mails', async () => {
    const editors = await admin.get(path('?role=edit'));
    expect(editors.body.items.map((m: { id: string }) => m.id)).toEqual([org.members.edit.id]);
    expect(editors.body.count).toBe(1);
    const guests = await admin.get(path('?role=guest'));
    expect(guests.body.items.map((m: { id: string }) => m.id)).toEqual([org.members.guest.id]);
    const byName = await admin.get(path('?search=REVIEW'));
    expect(byName.body.items.map((m: { id: string }) => m.id)).toEqual([org.members.review.id]);
    const byMail = await admin.get(path(`?search=${encodeURIComponent(org.members.comment.email.split('@')[0])}`));
    expect(byMail.body.items.map((m: { id: string }) => m.id)).toEqual([org.members.comment.id]);
    const regexy = await admin.get(path('?search=.*'));
    expect(regexy.status).toBe(200);
    expect(regexy.body.count).toBe(0);
    const bad = await admin.get(path('?role=owner'));
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('query.role');
  });

  it('pages with limit=2 in both orders, each member once, count the whole list', async () => {
    for (const order of ['asc', 'desc']) {
      const seen: string[] = [];
      let page: string | undefined;
      do {
        const res = await admin.get(path(`?limit=2&order=${order}${page ? `&page=${encodeURIComponent(page)}` : ''}`));
        expect(res.status).toBe(200);
        assertMatchesSpec('0.130.0', 'get', '/orgs/{organizationId}/members', 200, res.body);
        expect(res.body.count).toBe(7);
        seen.push(...res.body.items.map((m: { id: string; joinedAt: string }) => m.id));
        page = res.body.next?.page;
      } while (page);
      expect(seen).toHaveLength(7);
      expect(new Set(seen).size).toBe(7);
    }
  });

  it('sorts by last activity, listing only members seen at least once', async () => {
    await http(sut.baseUrl, org.members.comment.token).post(`/v1/orgs/${org.orgId}/ping`);
    const seen = async (userId: string) => (await admin.get(`/v1/orgs/${org.orgId}/members/${userId}`)).body.lastSeenAt as string;
    const commentSeen = await seen(org.members.comment.id);
    // The second ping must be later than the first: ping again until the clock has moved on (a
    // millisecond's resolution, not a propagation).
    await eventually(
      async () => {
        await http(sut.baseUrl, org.members.read.token).post(`/v1/orgs/${org.orgId}/ping`);
        if (!((await seen(org.members.read.id)) > commentSeen)) throw new Error('same millisecond');
      },
      5000,
      1,
    );
    const res = await admin.get(path('?sort=lastSeenAt&order=desc'));
    expect(res.body.items.map((m: { id: string }) => m.id)).toEqual([org.members.read.id, org.members.comment.id]);
    expect(res.body.count).toBe(2);
    expect(res.body.items[0].lastSeenAt >= res.body.items[1].lastSeenAt).toBe(true);
  });

  it('changes roles: only role is accepted, nobody raises their own, the last admin stays', async () => {
    const res = await admin.patch(path(`/${org.members.read.id}`), { role: 'comment' });
    expect(res.status).toBe(200);
    assertMatchesSpec('0.130.0', 'patch', '/orgs/{organizationId}/members/{userId}', 200, res.body);
    expect(res.body.role).toBe('comment');
    expect((await admin.patch(path(`/${org.members.read.id}`), { role: 'read' })).body.role).toBe('read');

    const unknownField = await admin.patch(path(`/${org.members.read.id}`), { role: 'edit', disabled: true });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.error.message).toContain('unknown field "disabled"');
    expect((await admin.get(path(`/${org.members.read.id}`))).body.role).toBe('read');

    const selfPromotion = await http(sut.baseUrl, org.members.create.token).patch(path(`/${org.members.create.id}`), { role: 'admin' });
    expect(selfPromotion.status).toBe(403);
    assertErrorBody(403, selfPromotion.body);

    const lastAdmin = await admin.patch(path(`/${org.members.admin.id}`), { role: 'read' });
    expect(lastAdmin.status).toBe(409);
    expect(lastAdmin.body.error.message).toContain('at least one admin');
    expect((await admin.get(path(`/${org.members.admin.id}`))).body.role).toBe('admin');
    const removeLast = await admin.delete(path(`/${org.members.admin.id}`));
    expect(removeLast.status).toBe(409);
  });

  it('lets an admin step down once another admin exists, and lets members leave', async () => {
    const owner = await createUser(sut, 'owner2');
    const orgId = await createOrganization(sut, owner, 'Handover');
    const heir = await createUser(sut, 'heir');
    const o = http(sut.baseUrl, owner.token);
    await o.post(`/v1/orgs/${orgId}/invites`, { emails: [{ email: heir.email, role: 'admin' }] });
    expect((await o.patch(`/v1/orgs/${orgId}/members/${owner.id}`, { role: 'edit' })).status).toBe(200);
    // Now only the heir is admin; the former admin cannot take the role back themselves.
    expect((await o.patch(`/v1/orgs/${orgId}/members/${owner.id}`, { role: 'admin' })).status).toBe(403);
    // Leaving: the member removes themselves, then the organization is invisible to them.
    expect((await o.delete(`/v1/orgs/${orgId}/members/${owner.id}`)).status).toBe(204);
    expect((await o.get(`/v1/orgs/${orgId}`)).status).toBe(404);
    // Removing someone who is not a member changes nothing.
    expect((await http(sut.baseUrl, heir.token).delete(`/v1/orgs/${orgId}/members/${owner.id}`)).status).toBe(204);
    expect((await http(sut.baseUrl, heir.token).get(`/v1/orgs/${orgId}/members`)).body.count).toBe(1);
    // Invited again, the removed member is back.
    await http(sut.baseUrl, heir.token).post(`/v1/orgs/${orgId}/invites`, { emails: [{ email: owner.email, role: 'read' }] });
    expect((await o.get(`/v1/orgs/${orgId}`)).status).toBe(200);
  });

  it('marks SSO members and lists their spaces (none in an organization without spaces)', async () => {
    const sso = await admin.post(path(`/${org.members.edit.id}/sso`));
    expect(sso.status).toBe(200);
    assertMatchesSpec('0.130.0', 'post', '/orgs/{organizationId}/members/{userId}/sso', 200, sso.body);
    expect(sso.body.sso).toBe(true);
    // Content answers for a member just added, on the first request.
    const spaces = await admin.get(path(`/${org.members.edit.id}/spaces`));
    expect(spaces.status).toBe(200);
    assertMatchesSpec('0.130.0', 'get', '/orgs/{organizationId}/members/{userId}/spaces', 200, spaces.body);
    expect(spaces.body).toEqual({ items: [], count: 0 });
  });

  it('answers 404 for members of other organizations and for non-members', async () => {
    const stranger: TestUser = org.stranger;
    expect((await admin.get(path(`/${stranger.id}`))).status).toBe(404);
    expect((await http(sut.baseUrl, stranger.token).get(path())).status).toBe(404);
  });
});
