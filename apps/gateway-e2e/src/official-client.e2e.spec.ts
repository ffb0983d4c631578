import { GitBookAPI, MemberRole } from '@gitbook/api';
import { assertMatchesSpec, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createOrganization, createUser, TestUser } from './fixtures';

describe('the official @gitbook/api client, unchanged', () => {
  let sut: SystemUnderTest;
  let user: TestUser;
  let orgId: string;

  beforeAll(async () => {
    sut = await sharedSystem();
    user = await createUser(sut, 'client');
    orgId = await createOrganization(sut, user, 'Client org');
  });

  it('gets the user, lists organizations, gets and patches one', async () => {
    const api = new GitBookAPI({ endpoint: sut.baseUrl, authToken: user.token });

    const me = await api.user.getAuthenticatedUser();
    expect(me.status).toBe(200);
    expect(me.data).toMatchObject({ object: 'user', id: user.id, email: user.email });
    assertMatchesSpec('0.130.0', 'get', '/user', 200, me.data);

    const list = await api.orgs.listOrganizationsForAuthenticatedUser();
    expect(list.data.count).toBe(1);
    expect(list.data.items.map((o) => o.id)).toEqual([orgId]);
    assertMatchesSpec('0.130.0', 'get', '/orgs', 200, list.data);

    const org = await api.orgs.getOrganizationById(orgId);
    expect(org.data).toMatchObject({ object: 'organization', id: orgId, title: 'Client org', permissions: { admin: true, view: true } });
    assertMatchesSpec('0.130.0', 'get', '/orgs/{organizationId}', 200, org.data);

    const patched = await api.orgs.updateOrganizationById(orgId, { title: 'Renamed by the client', defaultRole: MemberRole.Edit });
    expect(patched.data).toMatchObject({ title: 'Renamed by the client', defaultRole: MemberRole.Edit });
    assertMatchesSpec('0.130.0', 'patch', '/orgs/{organizationId}', 200, patched.data);

    const again = await api.orgs.getOrganizationById(orgId);
    expect(again.data.title).toBe('Renamed by the client');
  });

  it('surfaces errors as the client expects them (status and message)', async () => {
    const api = new GitBookAPI({ endpoint: sut.baseUrl, authToken: user.token });
    await expect(api.orgs.getOrganizationById('does-not-exist')).rejects.toMatchObject({ code: 404 });
    const anonymous = new GitBookAPI({ endpoint: sut.baseUrl, authToken: 'not-a-token' });
    await expect(anonymous.user.getAuthenticatedUser()).rejects.toMatchObject({ code: 401 });
  });
});
