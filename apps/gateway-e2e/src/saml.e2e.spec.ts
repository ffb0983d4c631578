import { GitBookAPI, MemberRole } from '@gitbook/api';
import { assertErrorBody, assertMatchesSpec, readEvents, startSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createOrganization, createUser, TestUser } from './fixtures';
import { http, walk } from './http-client';
import { certificateLines, createTeam, selfSignedCertificate } from './saml-fixtures';

const PUBLIC_URL = 'https://docs.bindery.test';
const LIST = '/orgs/{organizationId}/saml';
const ONE = '/orgs/{organizationId}/saml/{samlProviderId}';

describe('SAML providers through the gateway', () => {
  let sut: SystemUnderTest;
  let ada: TestUser;
  let orgId: string;
  let api: ReturnType<typeof http>;
  let client: GitBookAPI;
  let certificate: string;
  let teamId: string;

  beforeAll(async () => {
    sut = await startSystem({ BINDERY_PUBLIC_URL: PUBLIC_URL }, { services: ['identity'] });
    ada = await createUser(sut, 'ada');
    orgId = await createOrganization(sut, ada, 'Federated');
    api = http(sut.baseUrl, ada.token);
    client = new GitBookAPI({ endpoint: sut.baseUrl, authToken: ada.token });
    certificate = selfSignedCertificate();
    teamId = await createTeam(sut, ada, orgId, 'Newcomers', [ada.id]);
  });
  afterAll(() => sut?.stop());

  it('creates a pending provider from a label alone, with the service URLs under the public URL (official client)', async () => {
    const res = await client.orgs.createOrganizationSamlProvider(orgId, { label: 'Okta (draft)' });
    expect(res.status).toBe(201);
    assertMatchesSpec('0.130.0', 'post', LIST, 201, res.data);
    const id = res.data.id;
    expect(res.data).toEqual({
      object: 'saml-provider',
      id,
      label: 'Okta (draft)',
      defaultRole: 'read', // the organization's default role for new members
      createdAt: expect.any(String),
      status: 'pending',
      service: {
        acsURL: `${PUBLIC_URL}/auth/saml/${id}/acs`,
        startURL: `${PUBLIC_URL}/auth/saml/${id}/login`,
        entityID: `${PUBLIC_URL}/auth/saml/${id}/metadata`,
      },
      urls: { location: `${PUBLIC_URL}/v1/orgs/${orgId}/saml/${id}` },
    });
    expect(res.headers.get('location')).toBe(res.data.urls.location);
  });

  it('creates an active provider with every setting and shows the certificate exactly as sent', async () => {
    const res = await api.post(`/v1/orgs/${orgId}/saml`, {
      label: 'Okta',
      entityID: 'http://www.okta.com/exk1',
      certificate,
      ssoURL: 'https://idp.example/app/sso/saml',
      defaultTeam: teamId,
      defaultRole: null,
    });
    expect(res.status).toBe(201);
    assertMatchesSpec('0.130.0', 'post', LIST, 201, res.body);
    expect(res.body).toMatchObject({ status: 'active', certificate, entityID: 'http://www.okta.com/exk1', ssoURL: 'https://idp.example/app/sso/saml', defaultRole: null });
    expect(res.body.defaultTeam).toMatchObject({ object: 'team', id: teamId, title: 'Newcomers', members: 1 });
    // The same team as the teams family shows it.
    const team = await api.get(`/v1/orgs/${orgId}/teams/${teamId}`);
    expect(res.body.defaultTeam).toMatchObject({ title: team.body.title, members: team.body.members, createdAt: team.body.createdAt });

    const got = await client.orgs.getOrganizationSamlProviderById(orgId, res.body.id);
    assertMatchesSpec('0.130.0', 'get', ONE, 200, got.data);
    expect(got.data).toEqual(res.body);
  });

  it('completes a pending provider with PATCH (official client) and changes only what is sent', async () => {
    const created = await api.post(`/v1/orgs/${orgId}/saml`, { label: 'Azure' });
    const id = created.body.id;
    const patched = await client.orgs.updateOrganizationSamlProvider(orgId, id, {
      entityID: 'https://sts.windows.net/tenant/',
      certificate,
      ssoURL: 'https://login.example/saml2',
      defaultRole: MemberRole.Edit,
    });
    expect(patched.status).toBe(200);
    assertMatchesSpec('0.130.0', 'patch', ONE, 200, patched.data);
    expect(patched.data).toMatchObject({ label: 'Azure', status: 'active', defaultRole: 'edit', certificate });

    const renamed = await api.patch(`/v1/orgs/${orgId}/saml/${id}`, { label: 'Azure AD', defaultTeam: teamId });
    expect(renamed.status).toBe(200);
    assertMatchesSpec('0.130.0', 'patch', ONE, 200, renamed.body);
    expect(renamed.body).toEqual({ ...patched.data, label: 'Azure AD', defaultTeam: expect.objectContaining({ id: teamId }) });
    const same = await api.patch(`/v1/orgs/${orgId}/saml/${id}`, {});
    expect(same.body).toEqual(renamed.body);
  });

  it('stops showing a default team once the team is deleted', async () => {
    const doomed = await createTeam(sut, ada, orgId, 'Doomed');
    const created = await api.post(`/v1/orgs/${orgId}/saml`, { label: 'With team', defaultTeam: doomed });
    expect(created.body.defaultTeam.id).toBe(doomed);
    expect((await api.delete(`/v1/orgs/${orgId}/teams/${doomed}`)).status).toBe(204);
    const after = await api.get(`/v1/orgs/${orgId}/saml/${created.body.id}`);
    assertMatchesSpec('0.130.0', 'get', ONE, 200, after.body);
    expect(after.body.defaultTeam).toBeUndefined();
    const refused = await api.patch(`/v1/orgs/${orgId}/saml/${created.body.id}`, { defaultTeam: doomed });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('defaultTeam');
  });

  it('pages through providers with limit=2, visiting each once, with the whole count', async () => {
    const owner = await createUser(sut, 'pager');
    const org = await createOrganization(sut, owner, 'Many providers');
    const own = http(sut.baseUrl, owner.token);
    const created = new Set<string>();
    for (let i = 0; i < 5; i++) created.add((await own.post(`/v1/orgs/${org}/saml`, { label: `IdP ${i}` })).body.id);
    let pages = 0;
    const seen = (
      await walk<{ id: string }>(own, `/v1/orgs/${org}/saml`, 2, (body) => {
        assertMatchesSpec('0.130.0', 'get', LIST, 200, body);
        expect(body.count).toBe(5);
        expect(body.items.length).toBeLessThanOrEqual(2);
        pages++;
      })
    ).map((p) => p.id);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(5);
    expect(new Set(seen)).toEqual(created);
    const viaClient = await new GitBookAPI({ endpoint: sut.baseUrl, authToken: owner.token }).orgs.listSamlProvidersInOrganizationById(org, { limit: 2 });
    assertMatchesSpec('0.130.0', 'get', LIST, 200, viaClient.data);
    expect(viaClient.data.items).toHaveLength(2);
  });

  it('lists the active providers as sign-in choices for any member (official client)', async () => {
    const owner = await createUser(sut, 'sso-owner');
    const org = await createOrganization(sut, owner, 'Sign-in choices');
    const own = http(sut.baseUrl, owner.token);
    const active = await own.post(`/v1/orgs/${org}/saml`, { label: 'Corporate', entityID: 'urn:idp', certificate, ssoURL: 'https://idp.example/sso' });
    await own.post(`/v1/orgs/${org}/saml`, { label: 'Not ready' });
    const guest = await createUser(sut, 'guest');
    const invited = await own.post(`/v1/orgs/${org}/invites`, { emails: [{ email: guest.email, role: null }] });
    expect(invited.status).toBe(200);

    const res = await new GitBookAPI({ endpoint: sut.baseUrl, authToken: guest.token }).orgs.listSsoProviderLoginsInOrganization(org);
    expect(res.status).toBe(200);
    assertMatchesSpec('0.130.0', 'get', '/orgs/{organizationId}/sso', 200, res.data);
    expect(res.data).toEqual({ items: [{ id: active.body.id, label: 'Corporate', startURL: active.body.service.startURL }] });
  });

  it('deletes a provider (204, official client); it is gone from every read, and deleting again is 204 too', async () => {
    const created = await api.post(`/v1/orgs/${orgId}/saml`, { label: 'Short-lived', entityID: 'urn:gone', certificate, ssoURL: 'https://idp.example/gone' });
    const id = created.body.id;
    const del = await client.orgs.deleteOrganizationSamlProvider(orgId, id);
    expect(del.status).toBe(204);
    for (const res of [await api.get(`/v1/orgs/${orgId}/saml/${id}`), await api.patch(`/v1/orgs/${orgId}/saml/${id}`, { label: 'Back' })]) {
      expect(res.status).toBe(404);
      assertErrorBody(404, res.body);
    }
    // The provider did not exist (any more): 204, as the official API answers.
    expect((await api.delete(`/v1/orgs/${orgId}/saml/${id}`)).status).toBe(204);
    expect((await api.delete(`/v1/orgs/${orgId}/saml/never-was`)).status).toBe(204);
    const list = await api.get(`/v1/orgs/${orgId}/saml?limit=1000`);
    expect(list.body.items.map((p: { id: string }) => p.id)).not.toContain(id);
    const logins = await api.get(`/v1/orgs/${orgId}/sso`);
    expect(logins.body.items.map((p: { id: string }) => p.id)).not.toContain(id);
  });

  it("answers 404 for another organization's provider, even to an admin of both paths' organizations (deleting it there: nothing to delete)", async () => {
    const bob = await createUser(sut, 'bob');
    const bobOrg = await createOrganization(sut, bob, 'Bob org');
    const mine = await api.post(`/v1/orgs/${orgId}/saml`, { label: 'Mine' });
    const asBob = http(sut.baseUrl, bob.token);
    for (const res of [await asBob.get(`/v1/orgs/${bobOrg}/saml/${mine.body.id}`), await asBob.patch(`/v1/orgs/${bobOrg}/saml/${mine.body.id}`, { label: 'Taken' })]) {
      expect(res.status).toBe(404);
      assertErrorBody(404, res.body);
    }
    expect((await asBob.delete(`/v1/orgs/${bobOrg}/saml/${mine.body.id}`)).status).toBe(204);
    expect((await asBob.delete(`/v1/orgs/${orgId}/saml/${mine.body.id}`)).status).toBe(404);
    expect((await api.get(`/v1/orgs/${orgId}/saml/${mine.body.id}`)).body.label).toBe('Mine');
  });

  it('refuses bad input with a 400 naming the field, and changes nothing', async () => {
    const otherOwner = await createUser(sut, 'other');
    const otherOrg = await createOrganization(sut, otherOwner, 'Other org');
    const foreignTeam = await createTeam(sut, otherOwner, otherOrg, 'Not yours');
    const pem = certificateLines(certificate);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ label: 'x'.repeat(31) }, 'body.label'],
      [{ label: '' }, 'body.label'],
      [{ label: '   ' }, 'label'],
      [{ label: 'Fine', certificate: 'not a certificate' }, 'certificate'],
      [{ label: 'Fine', certificate: `-----BEGIN CERTIFICATE-----\n${pem.slice(0, 3).join('\n')}\n-----END CERTIFICATE-----\n` }, 'certificate'],
      [{ label: 'Fine', certificate: `${certificate}-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n` }, 'certificate'],
      [{ label: 'Fine', certificate: 'x'.repeat(10001) }, 'body.certificate'],
      [{ label: 'Fine', ssoURL: 'not a uri' }, 'body.ssoURL'],
      [{ label: 'Fine', ssoURL: 'ftp://idp.example/sso' }, 'body.ssoURL'],
      [{ label: 'Fine', entityID: 'e'.repeat(1025) }, 'body.entityID'],
      [{ label: 'Fine', defaultTeam: foreignTeam }, 'defaultTeam'],
      [{ label: 'Fine', defaultTeam: 'no-such-team' }, 'defaultTeam'],
      [{ label: 'Fine', defaultRole: 'owner' }, 'body.defaultRole'],
      [{ label: 'Fine', status: 'active' }, 'unknown field "status"'],
    ];
    const before = await api.get(`/v1/orgs/${orgId}/saml?limit=1000`);
    for (const [body, field] of cases) {
      const res = await api.post(`/v1/orgs/${orgId}/saml`, body);
      expect({ body: Object.keys(body), status: res.status }).toEqual({ body: Object.keys(body), status: 400 });
      assertErrorBody(400, res.body);
      expect(res.body.error.message).toContain(field);
      expect(res.body.error.message).not.toContain(pem[1]);
    }
    expect((await api.get(`/v1/orgs/${orgId}/saml?limit=1000`)).body).toEqual(before.body);

    const target = await api.post(`/v1/orgs/${orgId}/saml`, { label: 'Patch target', entityID: 'urn:t', certificate, ssoURL: 'https://idp.example/t' });
    for (const [body, field] of cases) {
      const { label: _label, ...rest } = body;
      const patch = body.label === 'Fine' ? rest : body;
      const res = await api.patch(`/v1/orgs/${orgId}/saml/${target.body.id}`, patch);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(field);
    }
    expect((await api.get(`/v1/orgs/${orgId}/saml/${target.body.id}`)).body).toEqual(target.body);
  });

  it('publishes created / updated / deleted events with ids only, and never logs or publishes the certificate', async () => {
    const created = await api.post(`/v1/orgs/${orgId}/saml`, { label: 'Evented', entityID: 'urn:ev', certificate, ssoURL: 'https://idp.example/ev' });
    const id = created.body.id;
    expect((await api.patch(`/v1/orgs/${orgId}/saml/${id}`, { certificate: selfSignedCertificate('rotated.test') })).status).toBe(200);
    expect((await api.delete(`/v1/orgs/${orgId}/saml/${id}`)).status).toBe(204);

    const types = ['identity.saml_provider.created', 'identity.saml_provider.updated', 'identity.saml_provider.deleted'];
    const events = await readEvents(sut.env.KAFKA_BROKERS.split(','), `${sut.env.KAFKA_NAMESPACE}bindery.identity.v1`, (evs) =>
      types.every((t) => evs.some((e) => e.type === t && e.subject === id)),
    );
    // Delivery is at least once: the same event may arrive twice, under its one id.
    const mine = [...new Map(events.filter((e) => e.subject === id).map((e) => [e.id, e])).values()];
    expect(mine.map((e) => e.type)).toEqual(types);
    for (const e of mine) expect(e.data).toEqual({ organizationId: orgId, samlProviderId: id });

    const lines = certificateLines(certificate);
    const allSamlEvents = JSON.stringify(events.filter((e) => e.type.startsWith('identity.saml_provider.')));
    const logs = [...sut.apps.identity.output, ...sut.apps.gateway.output].join('\n');
    for (const line of lines) {
      expect(allSamlEvents.includes(line)).toBe(false);
      expect(logs.includes(line)).toBe(false);
    }
  });
});
