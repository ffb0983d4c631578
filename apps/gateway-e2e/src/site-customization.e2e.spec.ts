import { assertMatchesSpec, startSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { editChangeRequest, mergeChangeRequest, openChangeRequest } from './change-request-fixtures';
import { createOrganization, createUser } from './fixtures';
import { Client, http } from './http-client';
import { createPublishedSite, CreatedSite } from './site-fixtures';
import { customizationBody } from './site-customization-fixtures';

/**
 * A site's customization through the API (0.202.0 shapes, PUT then GET, a site space's overrides)
 * and on the published site: the reader keeps resolutions a minute here, so the new brand showing
 * within the test's bound was brought by sites.site_customization.updated.
 */
const SITE = '/orgs/{organizationId}/sites/{siteId}';
const SPACE_PATH = `${SITE}/site-spaces/{siteSpaceId}/customization`;

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 10_000): Promise<{ value: T; ms: number }> {
  const t0 = Date.now();
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() - t0 > timeoutMs) return { value, ms: Date.now() - t0 };
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('site customization (real system)', () => {
  let sut: SystemUnderTest;
  let admin: Client;
  let orgId: string;
  let site: CreatedSite;
  let spaceId: string;
  const base = () => `/v1/orgs/${orgId}/sites/${site.id}`;
  const spaceBase = () => `${base()}/site-spaces/${site.siteSpaceIds[0]}/customization`;

  beforeAll(async () => {
    sut = await startSystem({ READER_RESOLVE_TTL_MS: '60000' });
    const ready = await until(
      () => fetch(`${sut.env.BINDERY_READER_URL}/readyz`).then((r) => r.status),
      (s) => s === 200,
      30_000,
    );
    expect(ready.value).toBe(200);
    const owner = await createUser(sut, 'brand-owner');
    admin = http(sut.baseUrl, owner.token);
    orgId = await createOrganization(sut, owner, 'Brand');
    spaceId = (await createSpace(admin, orgId, { title: 'Orbit' })).id;
    const cr = await openChangeRequest(admin, spaceId, 'Pages');
    await editChangeRequest(admin, spaceId, cr.id, [
      { operation: 'insert_page', title: 'Welcome', document: { markdown: 'Read the [notes](https://example.com/notes).' } },
      { operation: 'insert_page', title: 'Setup', document: { markdown: 'Set it up.' } },
    ]);
    await mergeChangeRequest(admin, spaceId, cr.id);
    site = await createPublishedSite(admin, orgId, [spaceId], 'public');
  }, 240_000);

  afterAll(async () => {
    await sut?.stop();
  });

  test('a site that never set any answers the defaults, valid against 0.202.0, without updatedAt', async () => {
    const res = await admin.get(`${base()}/customization`);
    expect(res.status).toBe(200);
    assertMatchesSpec('0.202.0', 'get', `${SITE}/customization`, 200, res.body);
    expect(res.body.updatedAt).toBeUndefined();
    expect(res.body.trademark).toEqual({ enabled: true });
    expect(res.body.themes).toEqual({ default: 'system', toggeable: true });
  });

  test('PUT replaces the settings; GET answers what was put, with updatedAt', async () => {
    const body = customizationBody({ title: 'Orbit Handbook', trademark: { enabled: false }, privacyPolicy: { url: 'https://orbit.example.com/privacy' } });
    const put = await admin.put(`${base()}/customization`, body);
    expect(put.status).toBe(200);
    assertMatchesSpec('0.202.0', 'put', `${SITE}/customization`, 200, put.body);
    expect(Date.parse(put.body.updatedAt)).toBeGreaterThan(Date.now() - 60_000);
    const got = await admin.get(`${base()}/customization`);
    assertMatchesSpec('0.202.0', 'get', `${SITE}/customization`, 200, got.body);
    expect(got.body).toEqual(put.body);
    expect(got.body).toEqual({ ...body, updatedAt: put.body.updatedAt });
  });

  test("a site space: GET is the site's, PATCH overrides, null resets one, DELETE removes all (205, then 204)", async () => {
    const site0 = (await admin.get(`${base()}/customization`)).body;
    const first = await admin.get(spaceBase());
    assertMatchesSpec('0.202.0', 'get', SPACE_PATH, 200, first.body);
    expect(first.body).toEqual(site0);

    const patched = await admin.patch(spaceBase(), { title: 'Orbit (DE)', styling: { corners: 'straight' }, footer: { copyright: '© Orbit GmbH' } });
    expect(patched.status).toBe(200);
    assertMatchesSpec('0.202.0', 'patch', SPACE_PATH, 200, patched.body);
    expect(patched.body.title).toBe('Orbit (DE)');
    expect(patched.body.styling).toEqual({ ...site0.styling, corners: 'straight' });
    expect(patched.body.footer).toEqual({ groups: [], copyright: '© Orbit GmbH' });
    expect((await admin.get(`${base()}/customization`)).body.title).toBe('Orbit Handbook');

    const reset = await admin.patch(spaceBase(), { title: null, styling: { corners: null } });
    expect(reset.status).toBe(200);
    expect(reset.body.title).toBe('Orbit Handbook');
    expect(reset.body.styling.corners).toBe('rounded');
    expect(reset.body.footer.copyright).toBe('© Orbit GmbH');

    expect((await admin.delete(spaceBase())).status).toBe(205);
    const after = await admin.get(spaceBase());
    expect({ ...after.body, updatedAt: undefined }).toEqual({ ...site0, updatedAt: undefined });
    expect((await admin.delete(spaceBase())).status).toBe(204);
  });

  test('bad input is a 400 naming the field', async () => {
    const styling = customizationBody().styling as Record<string, unknown>;
    const colour = await admin.put(`${base()}/customization`, customizationBody({ styling: { ...styling, primaryColor: { light: 'red;}body{display:none', dark: '#000000' } } }));
    expect(colour.status).toBe(400);
    expect(colour.body.error.message).toContain('body.styling.primaryColor.light');
    const missing = await admin.put(`${base()}/customization`, { styling });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/body\.\w+ is required/);
    const corners = await admin.patch(spaceBase(), { styling: { corners: 'wavy' } });
    expect(corners.status).toBe(400);
    expect(corners.body.error.message).toContain('body.styling.corners');
    const unknown = await admin.patch(spaceBase(), { header: { banner: 'x' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('unknown field "banner"');
  });

  test('the published site shows the new brand once the event reaches the reader', async () => {
    const page = () => fetch(`${site.url}/`).then((r) => r.text());
    const before = await page();
    expect(before).toContain('Welcome');
    expect(before).not.toContain('orbit-light.png');

    const pages = (await admin.get(`/v1/spaces/${spaceId}/content`)).body.pages as Array<{ id: string; title: string }>;
    const setup = pages.find((p) => p.title === 'Setup')!;
    const styling = customizationBody().styling as Record<string, unknown>;
    const t0 = Date.now();
    const put = await admin.put(
      `${base()}/customization`,
      customizationBody({
        title: 'Orbit Handbook',
        styling: { ...styling, primaryColor: { light: '#ffcc00', dark: '#ffcc00' }, corners: 'straight' },
        favicon: { emoji: '🛰' },
        header: {
          preset: 'default',
          logo: { light: 'https://cdn.example.com/orbit-light.png', dark: 'https://cdn.example.com/orbit-dark.png' },
          links: [
            { title: 'Get set up', to: { kind: 'page', page: setup.id }, links: [] },
            { title: 'Status', to: { kind: 'url', url: 'https://status.example.com' }, style: 'button-primary', links: [] },
            { title: 'Trap', to: { kind: 'url', url: 'javascript:alert(1)' }, links: [] },
          ],
        },
        footer: { copyright: '© 2026 Orbit', groups: [{ title: 'Company', links: [{ title: 'About', to: { kind: 'url', url: 'https://orbit.example.com/about' } }] }] },
        trademark: { enabled: false },
        pagination: { enabled: false },
        externalLinks: { target: 'blank' },
      }),
    );
    expect(put.status).toBe(200);
    const shown = await until(page, (html) => html.includes('orbit-light.png'));
    const html = shown.value;
    console.log(`the new brand showed ${Date.now() - t0} ms after the PUT was sent (${shown.ms} ms of polling)`);
    expect(html).toContain('<img class="site-logo only-light" src="https://cdn.example.com/orbit-light.png" alt="Orbit Handbook">');
    expect(html).toContain('<title>Welcome | Orbit Handbook</title>');
    expect(html).toMatch(/--radius: 0;/);
    const link = /--link: (#[0-9a-f]{6});/.exec(html)?.[1];
    expect(link).toBeDefined();
    expect(link).not.toBe('#ffcc00');
    expect(html).toMatch(/<a class="header-link" href="[^"]*\/setup">Get set up<\/a>/);
    expect(html).toContain('<a class="button button-primary" href="https://status.example.com/" target="_blank" rel="noopener">Status</a>');
    expect(html.toLowerCase()).not.toContain('javascript:');
    expect(html).toContain('<div class="footer-group"><h2>Company</h2>');
    expect(html).toContain('<p class="copyright">© 2026 Orbit</p>');
    expect(html).not.toContain('Published with Bindery');
    expect(html).toContain('<link rel="icon" href="data:image/svg+xml,');
    expect(html).toContain('href="https://example.com/notes" target="_blank" rel="noopener"');
    expect(html).not.toContain('rel="next"');
  });
});
