import { assertMatchesSpec, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { createOrganization, createUser, TestUser } from './fixtures';
import { http } from './http-client';
import { createPublishedSite, createShareLink, siteToken } from './site-fixtures';

/**
 * GET /v1/users/{userId}: the address every user's `urls.location` names. Members of a common
 * organization see each other; a site token (another renderer reading a published site) sees the
 * members of the site's organization by name, never their e-mail; anyone else gets the 404 of a user
 * that does not exist.
 */
describe('users by id (real system)', () => {
  let sut: SystemUnderTest;
  let owner: TestUser;
  let colleague: TestUser;
  let stranger: TestUser;
  let orgId: string;
  let strangerOrg: string;

  beforeAll(async () => {
    sut = await sharedSystem();
    owner = await createUser(sut, 'users-owner');
    colleague = await createUser(sut, 'users-colleague');
    stranger = await createUser(sut, 'users-stranger');
    orgId = await createOrganization(sut, owner, 'People');
    strangerOrg = await createOrganization(sut, stranger, 'Other people');
    const invited = await http(sut.baseUrl, owner.token).post(`/v1/orgs/${orgId}/invites`, { emails: [{ email: colleague.email, role: 'read' }] });
    expect(invited.status).toBe(200);
  }, 120_000);

  it('answers the user to themselves, a colleague and the instance administrator, in the official shape', async () => {
    for (const token of [owner.token, colleague.token, sut.adminToken]) {
      const res = await http(sut.baseUrl, token).get(`/v1/users/${owner.id}`);
      expect(res.status).toBe(200);
      assertMatchesSpec('0.130.0', 'get', '/users/{userId}', 200, res.body);
      expect(res.body).toMatchObject({ object: 'user', id: owner.id, email: owner.email, urls: { location: `${sut.baseUrl}/v1/users/${owner.id}` } });
    }
    // the address a user's representation gives is this route
    const me = await http(sut.baseUrl, colleague.token).get('/v1/user');
    expect((await http(sut.baseUrl, colleague.token).get(new URL(me.body.urls.location).pathname)).body.id).toBe(colleague.id);
  });

  it('a stranger and a user that does not exist answer the same 404', async () => {
    const strangerView = await http(sut.baseUrl, stranger.token).get(`/v1/users/${owner.id}`);
    const missing = await http(sut.baseUrl, owner.token).get('/v1/users/no-such-user');
    expect([strangerView.status, missing.status]).toEqual([404, 404]);
    expect(strangerView.body).toEqual({ error: { code: 404, message: 'User not found.' } });
    expect(missing.body).toEqual(strangerView.body);
  });

  it("a site token sees its organization's members by name only, and nobody else", async () => {
    const admin = http(sut.baseUrl, owner.token);
    const space = await createSpace(admin, orgId, { title: 'Team pages' });
    const site = await createPublishedSite(admin, orgId, [space.id]);
    const link = await createShareLink(admin, orgId, site.id);
    const token = await siteToken(admin, site, link.key);
    const reader = http(sut.baseUrl, token);
    const res = await reader.get(`/v1/users/${colleague.id}`);
    expect(res.status).toBe(200);
    assertMatchesSpec('0.130.0', 'get', '/users/{userId}', 200, res.body);
    expect(res.body).toEqual({ object: 'user', id: colleague.id, displayName: expect.any(String), urls: { location: `${sut.baseUrl}/v1/users/${colleague.id}` } });
    expect(JSON.stringify(res.body)).not.toContain('@');
    expect((await reader.get(`/v1/users/${stranger.id}`)).status).toBe(404);
    // and a site of the other organization does not see this one's members
    const otherSpace = await createSpace(http(sut.baseUrl, stranger.token), strangerOrg, { title: 'Elsewhere' });
    const otherSite = await createPublishedSite(http(sut.baseUrl, stranger.token), strangerOrg, [otherSpace.id]);
    const otherLink = await createShareLink(http(sut.baseUrl, stranger.token), strangerOrg, otherSite.id);
    const otherToken = await siteToken(http(sut.baseUrl, stranger.token), otherSite, otherLink.key);
    expect((await http(sut.baseUrl, otherToken).get(`/v1/users/${owner.id}`)).status).toBe(404);
  });
});
