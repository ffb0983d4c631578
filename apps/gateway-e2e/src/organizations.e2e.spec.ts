import { assertErrorBody, assertMatchesSpec, eventually, startSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createOrganization, createUser, TestUser } from './fixtures';
import { http, walk } from './http-client';

describe('organizations through the gateway', () => {
  let sut: SystemUnderTest;
  let ada: TestUser;
  let api: ReturnType<typeof http>;

  beforeAll(async () => {
    sut = await startSystem();
    ada = await createUser(sut, 'ada');
    api = http(sut.baseUrl, ada.token);
  });
  afterAll(() => sut?.stop());

  it('creates an organization with the caller as admin (spec 0.202.0) and a Location header', async () => {
    const res = await api.post('/v1/orgs', { title: 'Analytical Engines', emailDomains: ['Engines.example'] });
    expect(res.status).toBe(201);
    assertMatchesSpec('0.202.0', 'post', '/orgs', 201, res.body);
    expect(res.body).toMatchObject({ object: 'organization', title: 'Analytical Engines', emailDomains: ['engines.example'], permissions: { admin: true } });
    expect(res.headers.get('location')).toBe(`${sut.baseUrl}/v1/orgs/${res.body.id}`);
    expect(res.body.id).toMatch(/^[A-Za-z0-9_-]{20}$/);
  });

  it('refuses bad input with a 400 naming the field, and changes nothing', async () => {
    const before = (await api.get('/v1/orgs')).body.count;
    const cases: Array<[unknown, string]> = [
      [{ title: 'A' }, 'body.title'],
      [{ title: 'Fine', plan: 'enterprise' }, 'unknown field "plan"'],
      [{ title: 42 }, 'body.title must be string'],
      [{}, 'body.title is required'],
      [{ title: 'Fine', emailDomains: 'x.com' }, 'body.emailDomains must be array'],
      [{ title: 'Nul\u0000byte' }, 'body.title contains a NUL character'],
      ['{"title":"Lone \\ud800 surrogate"}', 'body.title contains a NUL character or invalid UTF-16'],
    ];
    for (const [body, message] of cases) {
      const res = await api.post('/v1/orgs', body);
      expect(res.status).toBe(400);
      assertErrorBody(400, res.body);
      expect(res.body.error.message).toContain(message);
    }
    const orgId = await createOrganization(sut, ada, 'Patch target');
    for (const [body, message] of [
      [{ title: 'x' }, 'body.title'],
      [{ id: 'other' }, 'unknown field "id"'],
      [{ defaultRole: 'owner' }, 'body.defaultRole'],
      [{ sso: 'yes' }, 'body.sso must be boolean'],
      [{ hostname: 'ab' }, 'body.hostname'],
      [{ logo: 'not a uri' }, 'body.logo'],
    ] as Array<[unknown, string]>) {
      const res = await api.patch(`/v1/orgs/${orgId}`, body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(message);
    }
    expect((await api.get(`/v1/orgs/${orgId}`)).body.title).toBe('Patch target');
    expect((await api.get('/v1/orgs')).body.count).toBe(before + 1);
  });

  it('answers framework-level failures in the error body', async () => {
    const malformed = await api.post('/v1/orgs', '{"title": ', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    assertErrorBody(400, malformed.body);
    const unknown = await api.get('/v1/nothing-here');
    expect(unknown.status).toBe(404);
    assertErrorBody(404, unknown.body);
    const huge = await api.post('/v1/orgs', { title: 'x'.repeat(2 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    assertErrorBody(413, huge.body);
    const badLimit = await api.get('/v1/orgs?limit=5000');
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.error.message).toContain('query.limit');
    const badCursor = await api.get('/v1/orgs?page=garbage');
    expect(badCursor.status).toBe(400);
    assertErrorBody(400, badCursor.body);
  });

  it('patches every writable field and reports them back', async () => {
    const orgId = await createOrganization(sut, ada, 'Everything');
    const res = await api.patch(`/v1/orgs/${orgId}`, {
      title: 'Everything, patched',
      emailDomains: ['a.example', 'b.example'],
      hostname: `h${Date.now().toString(36)}`,
      defaultRole: null,
      defaultContent: { type: 'site', site: 'site123' },
      logo: 'https://cdn.example/logo.png',
      sso: true,
      ai: true,
      inviteLinks: false,
    });
    expect(res.status).toBe(200);
    assertMatchesSpec('0.130.0', 'patch', '/orgs/{organizationId}', 200, res.body);
    expect(res.body).toMatchObject({ title: 'Everything, patched', defaultRole: null, defaultContent: { type: 'site', site: 'site123' }, sso: true, ai: true, inviteLinks: false });
    expect(res.body.urls.logo).toBe('https://cdn.example/logo.png');
    const cleared = await api.patch(`/v1/orgs/${orgId}`, { logo: null, defaultContent: null });
    expect(cleared.body.urls.logo).toBeUndefined();
    expect(cleared.body.defaultContent).toBeUndefined();
  });

  it('keeps hostnames unique across organizations (409)', async () => {
    const bob = await createUser(sut, 'bob');
    const a = await createOrganization(sut, ada, 'Host A');
    const b = await createOrganization(sut, bob, 'Host B');
    const hostname = `docs${Date.now().toString(36)}`;
    expect((await api.patch(`/v1/orgs/${a}`, { hostname })).status).toBe(200);
    const taken = await http(sut.baseUrl, bob.token).patch(`/v1/orgs/${b}`, { hostname });
    expect(taken.status).toBe(409);
    assertErrorBody(409, taken.body);
    // Once A moves on, the name is free again.
    expect((await api.patch(`/v1/orgs/${a}`, { hostname: `${hostname}x` })).status).toBe(200);
    expect((await http(sut.baseUrl, bob.token).patch(`/v1/orgs/${b}`, { hostname })).status).toBe(200);
  });

  it('pages through organizations with limit=2, visiting each once, with the whole count', async () => {
    const walker = await createUser(sut, 'walker');
    const created = new Set<string>();
    for (let i = 0; i < 7; i++) created.add(await createOrganization(sut, walker, `Org ${i}`));
    const client = http(sut.baseUrl, walker.token);
    let pages = 0;
    const seen = (
      await walk<{ id: string }>(client, '/v1/orgs', 2, (body) => {
        assertMatchesSpec('0.130.0', 'get', '/orgs', 200, body);
        expect(body.count).toBe(7);
        expect(body.items.length).toBeLessThanOrEqual(2);
        pages++;
      })
    ).map((o) => o.id);
    expect(pages).toBe(4);
    expect(seen).toHaveLength(7);
    expect(new Set(seen)).toEqual(created);
  });

  it('finds organizations by e-mail domain only for those who may know them', async () => {
    const owner = await createUser(sut, 'domainowner');
    const orgId = await createOrganization(sut, owner, 'Domain org');
    await http(sut.baseUrl, owner.token).patch(`/v1/orgs/${orgId}`, { emailDomains: ['example.com'] });
    // Test users have @example.com addresses: they may join, so they see it.
    const res = await api.get('/v1/email-domains/example.com/orgs');
    expect(res.status).toBe(200);
    assertMatchesSpec('0.130.0', 'get', '/email-domains/{emailDomain}/orgs', 200, res.body);
    expect(res.body.organizations.map((o: { id: string }) => o.id)).toContain(orgId);
    const found = res.body.organizations.find((o: { id: string }) => o.id === orgId);
    expect(found.permissions.view).toBe(false);
    // Another domain: nothing about it is revealed to an outsider.
    await http(sut.baseUrl, owner.token).patch(`/v1/orgs/${orgId}`, { emailDomains: ['secret.example'] });
    const other = await api.get('/v1/email-domains/secret.example/orgs');
    expect(other.body.organizations).toEqual([]);
  });

  it('records activity on ping', async () => {
    const orgId = await createOrganization(sut, ada, 'Ping');
    const res = await api.post(`/v1/orgs/${orgId}/ping`);
    expect(res.status).toBe(200);
    assertMatchesSpec('0.130.0', 'post', '/orgs/{organizationId}/ping', 200, res.body);
    expect((await api.post('/v1/orgs/nope/ping')).status).toBe(404);
  });

  it('invites: existing users join at once, others when their account is created', async () => {
    const orgId = await createOrganization(sut, ada, 'Invites');
    const existing = await createUser(sut, 'existing');
    const laterEmail = `later-${Date.now()}@example.com`;
    const res = await api.post(`/v1/orgs/${orgId}/invites`, { emails: [existing.email, { email: laterEmail, role: 'edit' }], role: 'comment' });
    expect(res.status).toBe(200);
    assertMatchesSpec('0.202.0', 'post', '/orgs/{organizationId}/invites', 200, res.body);
    expect(res.body).toEqual({ users: [existing.id], invited: 2 });
    const asExisting = await http(sut.baseUrl, existing.token).get(`/v1/orgs/${orgId}`);
    expect(asExisting.status).toBe(200);
    expect(asExisting.body.permissions).toMatchObject({ view: true, admin: false, createContent: false });

    const admin = http(sut.baseUrl, sut.adminToken);
    const later = await admin.post('/admin/users', { email: laterEmail, displayName: 'Later' });
    expect(later.status).toBe(201);
    const token = (await admin.post(`/admin/users/${later.body.id}/tokens`, {})).body.token;
    const joined = await eventually(async () => {
      const r = await http(sut.baseUrl, token).get('/v1/orgs');
      if (r.body.count !== 1) throw new Error(`not joined yet: ${JSON.stringify(r.body)}`);
      return r.body.items[0];
    });
    expect(joined.id).toBe(orgId);
  });

  it('refuses admin routes to anyone but the instance administrator', async () => {
    const res = await api.post('/admin/users', { email: 'x@example.com', displayName: 'X' });
    expect(res.status).toBe(403);
    assertErrorBody(403, res.body);
    const dup = await http(sut.baseUrl, sut.adminToken).post('/admin/users', { email: ada.email.toUpperCase(), displayName: 'Dup' });
    expect(dup.status).toBe(409);
    const noUser = await http(sut.baseUrl, sut.adminToken).post('/admin/users/nobody/tokens', {});
    expect(noUser.status).toBe(404);
  });

  it('never shows a token again and never answers with a stored secret', async () => {
    const me = await api.get('/v1/user');
    expect(JSON.stringify(me.body)).not.toContain(ada.token);
    expect(sut.apps.identity.output.join('\n')).not.toContain(ada.token);
    expect(sut.apps.gateway.output.join('\n')).not.toContain(ada.token);
  });
});
