import { deadLetterInContent } from './dead-letter-fixtures';
import { randomBytes } from 'node:crypto';
import { eventually, sharedOutboundSystem, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createOrganization, createUser, TestUser } from './fixtures';
import { http } from './http-client';
import { createTeam, selfSignedCertificate } from './saml-fixtures';
import { contentWriter } from './content-writer';
import { seedReusableContents } from './reusable-content-fixtures';
import { startTestWebsite } from './website-fixtures';
import { DeclaredResponses } from './openapi-declared-responses';
import { openapi30, openapi31Yaml, processedSpec } from './spec-fixtures';

type Json = Record<string, unknown>;

/**
 * Real answers validate against the schema the served /openapi.json declares for them (JSON Schema
 * 2020-12, with the document's components): what a generated client or a contract fuzzer relies on.
 */
describe('responses match the served /openapi.json', () => {
  let sut: SystemUnderTest;
  const openapi = new DeclaredResponses();
  let ada: TestUser;
  let orgId: string;
  const { declared, expect: expectDeclared } = openapi;

  beforeAll(async () => {
    sut = await sharedSystem();
    await openapi.load(sut);
    ada = await createUser(sut, 'ada', 'openapi-doc.test');
    orgId = await createOrganization(sut, ada, 'Described');
  });

  it('rejects what is not the declared shape (the schemas are not vacuous)', () => {
    const org = declared('get', '/v1/orgs/{organizationId}', 200);
    expect(org({})).toBe(false);
    expect(org({ object: 'organization', id: 'x', title: 'T', createdAt: '2024-01-01T00:00:00Z', permissions: {} })).toBe(false);
    expect(declared('get', '/v1/orgs', 200)({ items: [{}], count: 1 })).toBe(false);
  });

  it('users, tokens and organizations', async () => {
    const admin = http(sut.baseUrl, sut.adminToken);
    const user = expectDeclared(
      await admin.post('/admin/users', { email: `grace-${randomBytes(4).toString('hex')}@openapi-doc.test`, displayName: 'Grace' }),
      'post',
      '/admin/users',
      201,
    );
    expectDeclared(await admin.post(`/admin/users/${user.id}/tokens`, { label: 'doc' }), 'post', '/admin/users/{userId}/tokens', 201);
    const api = http(sut.baseUrl, ada.token);
    expectDeclared(await api.get('/v1/user'), 'get', '/v1/user', 200);
    expectDeclared(await api.get(`/v1/users/${ada.id}`), 'get', '/v1/users/{userId}', 200);
    const created = expectDeclared(await api.post('/v1/orgs', { title: 'Second', emailDomains: ['openapi-doc.test'] }), 'post', '/v1/orgs', 201);
    expectDeclared(await api.get('/v1/orgs'), 'get', '/v1/orgs', 200);
    expectDeclared(await api.get(`/v1/orgs/${orgId}`), 'get', '/v1/orgs/{organizationId}', 200);
    expectDeclared(await api.patch(`/v1/orgs/${orgId}`, { title: 'Described!', defaultRole: null, logo: 'https://example.com/l.png' }), 'patch', '/v1/orgs/{organizationId}', 200);
    expectDeclared(await api.get('/v1/email-domains/openapi-doc.test/orgs'), 'get', '/v1/email-domains/{emailDomain}/orgs', 200);
    expectDeclared(await api.post(`/v1/orgs/${created.id}/ping`), 'post', '/v1/orgs/{organizationId}/ping', 200);
  });

  it('members, invites and teams', async () => {
    const api = http(sut.baseUrl, ada.token);
    const bob = await createUser(sut, 'bob');
    const carol = await createUser(sut, 'carol');
    expectDeclared(
      await api.post(`/v1/orgs/${orgId}/invites`, { emails: [bob.email, 'nobody-yet@openapi-doc.test'], role: 'edit' }),
      'post',
      '/v1/orgs/{organizationId}/invites',
      200,
    );
    expectDeclared(await api.get(`/v1/orgs/${orgId}/members`), 'get', '/v1/orgs/{organizationId}/members', 200);
    expectDeclared(await api.get(`/v1/orgs/${orgId}/members/${bob.id}`), 'get', '/v1/orgs/{organizationId}/members/{userId}', 200);
    expectDeclared(await api.patch(`/v1/orgs/${orgId}/members/${bob.id}`, { role: null }), 'patch', '/v1/orgs/{organizationId}/members/{userId}', 200);
    expectDeclared(await api.get(`/v1/orgs/${orgId}/members/${bob.id}/spaces`), 'get', '/v1/orgs/{organizationId}/members/{userId}/spaces', 200);
    expectDeclared(await api.post(`/v1/orgs/${orgId}/members/${bob.id}/sso`), 'post', '/v1/orgs/{organizationId}/members/{userId}/sso', 200);

    const invite = expectDeclared(await api.post(`/v1/orgs/${orgId}/link-invites`, { role: 'read' }), 'post', '/v1/orgs/{organizationId}/link-invites', 201);
    expectDeclared(await api.get(`/v1/orgs/${orgId}/link-invites`), 'get', '/v1/orgs/{organizationId}/link-invites', 200);
    expectDeclared(await api.get(`/v1/orgs/${orgId}/link-invites/${invite.id}`), 'get', '/v1/orgs/{organizationId}/link-invites/{inviteId}', 200);
    expectDeclared(await api.patch(`/v1/orgs/${orgId}/link-invites/${invite.id}`, { role: 'comment' }), 'patch', '/v1/orgs/{organizationId}/link-invites/{inviteId}', 200);
    expectDeclared(await http(sut.baseUrl, carol.token).post(`/v1/orgs/${orgId}/invites/${invite.id}`), 'post', '/v1/orgs/{organizationId}/invites/{inviteId}', 200);

    const team = expectDeclared(await api.put(`/v1/orgs/${orgId}/teams`, { title: 'Writers', members: [ada.id] }), 'put', '/v1/orgs/{organizationId}/teams', 201);
    expectDeclared(await api.get(`/v1/orgs/${orgId}/teams/${team.id}`), 'get', '/v1/orgs/{organizationId}/teams/{teamId}', 200);
    expectDeclared(await api.patch(`/v1/orgs/${orgId}/teams/${team.id}`, { title: 'Editors' }), 'patch', '/v1/orgs/{organizationId}/teams/{teamId}', 200);
    expectDeclared(await api.get(`/v1/orgs/${orgId}/teams`), 'get', '/v1/orgs/{organizationId}/teams', 200);
    expectDeclared(await api.get(`/v1/orgs/${orgId}/teams/${team.id}/members`), 'get', '/v1/orgs/{organizationId}/teams/{teamId}/members', 200);
    expectDeclared(await api.get(`/v1/orgs/${orgId}/members/${ada.id}/teams`), 'get', '/v1/orgs/{organizationId}/members/{userId}/teams', 200);
  });

  it('SAML providers (pending and active) and SSO sign-in choices', async () => {
    const api = http(sut.baseUrl, ada.token);
    const teamId = await createTeam(sut, ada, orgId, 'Newcomers', [ada.id]);
    const pending = expectDeclared(await api.post(`/v1/orgs/${orgId}/saml`, { label: 'Draft' }), 'post', '/v1/orgs/{organizationId}/saml', 201);
    expect(pending.status).toBe('pending');
    const active = expectDeclared(
      await api.post(`/v1/orgs/${orgId}/saml`, {
        label: 'Okta',
        entityID: 'http://www.okta.com/exk1',
        certificate: selfSignedCertificate(),
        ssoURL: 'https://idp.example/app/sso/saml',
        defaultTeam: teamId,
      }),
      'post',
      '/v1/orgs/{organizationId}/saml',
      201,
    );
    expect(active.status).toBe('active');
    expectDeclared(await api.get(`/v1/orgs/${orgId}/saml`), 'get', '/v1/orgs/{organizationId}/saml', 200);
    expectDeclared(await api.get(`/v1/orgs/${orgId}/saml/${pending.id}`), 'get', '/v1/orgs/{organizationId}/saml/{samlProviderId}', 200);
    expectDeclared(await api.patch(`/v1/orgs/${orgId}/saml/${pending.id}`, { label: 'Draft 2' }), 'patch', '/v1/orgs/{organizationId}/saml/{samlProviderId}', 200);
    expectDeclared(await api.get(`/v1/orgs/${orgId}/sso`), 'get', '/v1/orgs/{organizationId}/sso', 200);
    // Bindery's sign-in metadata is XML: the content type it declares is checked, not a JSON schema.
    openapi.expectContentType(await fetch(`${sut.baseUrl}/auth/saml/${pending.id}/metadata`), 'get', '/auth/saml/{samlProviderId}/metadata', 200);
  });

  it('collections, spaces and content permissions', async () => {
    const api = http(sut.baseUrl, ada.token);
    const receiving = await createOrganization(sut, ada, 'Receiving');
    const bob = await createUser(sut, 'bob');
    expect((await api.post(`/v1/orgs/${orgId}/invites`, { emails: [{ email: bob.email, role: 'read' }] })).status).toBe(200);
    const teamId = await createTeam(sut, ada, orgId, 'Reviewers', [ada.id]);

    const guides = expectDeclared(await api.post(`/v1/orgs/${orgId}/collections`, { title: 'Guides' }), 'post', '/v1/orgs/{organizationId}/collections', 201);
    const nested = expectDeclared(await api.post(`/v1/orgs/${orgId}/collections`, { title: 'Nested', parent: guides.id }), 'post', '/v1/orgs/{organizationId}/collections', 201);
    expectDeclared(await api.get(`/v1/orgs/${orgId}/collections`), 'get', '/v1/orgs/{organizationId}/collections', 200);
    expectDeclared(await api.get(`/v1/collections/${guides.id}`), 'get', '/v1/collections/{collectionId}', 200);
    expectDeclared(await api.patch(`/v1/collections/${guides.id}`, { description: 'How to', defaultLevel: 'read' }), 'patch', '/v1/collections/{collectionId}', 200);

    const space = expectDeclared(
      await api.post(`/v1/orgs/${orgId}/spaces`, { title: 'Handbook', emoji: '📘', parent: guides.id }),
      'post',
      '/v1/orgs/{organizationId}/spaces',
      201,
    );
    expectDeclared(await api.get(`/v1/orgs/${orgId}/spaces`), 'get', '/v1/orgs/{organizationId}/spaces', 200);
    expectDeclared(await api.get(`/v1/spaces/${space.id}`), 'get', '/v1/spaces/{spaceId}', 200);
    expectDeclared(await api.patch(`/v1/spaces/${space.id}`, { icon: 'https://example.com/icon.png', editMode: 'locked' }), 'patch', '/v1/spaces/{spaceId}', 200);
    expectDeclared(await api.get(`/v1/collections/${guides.id}/spaces`), 'get', '/v1/collections/{collectionId}/spaces', 200);
    const copy = expectDeclared(await api.post(`/v1/spaces/${space.id}/duplicate`), 'post', '/v1/spaces/{spaceId}/duplicate', 201);
    expectDeclared(await api.post(`/v1/spaces/${copy.id}/move`, { parent: null }), 'post', '/v1/spaces/{spaceId}/move', 200);
    expect((await api.delete(`/v1/spaces/${copy.id}`)).status).toBe(205);
    expectDeclared(await api.post(`/v1/spaces/${copy.id}/restore`), 'post', '/v1/spaces/{spaceId}/restore', 200);
    expectDeclared(await api.post(`/v1/spaces/${copy.id}/transfer`, { organization: receiving }), 'post', '/v1/spaces/{spaceId}/transfer', 200);

    for (const [kind, id] of [
      ['spaces', space.id],
      ['collections', guides.id],
    ] as const) {
      const template = `/v1/${kind}/{${kind === 'spaces' ? 'spaceId' : 'collectionId'}}`;
      // the member invited and the team created a moment ago are known at once
      expect((await api.post(`/v1/${kind}/${id}/permissions`, { role: 'comment', users: [bob.id], teams: [teamId] })).status).toBe(204);
      const users = expectDeclared(await api.get(`/v1/${kind}/${id}/permissions/users`), 'get', `${template}/permissions/users`, 200) as unknown as { count: number };
      expect(users.count).toBe(1);
      const teams = expectDeclared(await api.get(`/v1/${kind}/${id}/permissions/teams`), 'get', `${template}/permissions/teams`, 200) as unknown as { count: number };
      expect(teams.count).toBe(1);
      expectDeclared(await api.get(`/v1/${kind}/${id}/permissions/aggregate`), 'get', `${template}/permissions/aggregate`, 200);
    }

    expectDeclared(await api.post(`/v1/collections/${nested.id}/move`, { parent: null }), 'post', '/v1/collections/{collectionId}/move', 200);
    expectDeclared(await api.post(`/v1/collections/${nested.id}/transfer`, { organization: receiving }), 'post', '/v1/collections/{collectionId}/transfer', 200);
  });

  it('space content: revisions, pages, files, links', async () => {
    const api = http(sut.baseUrl, ada.token);
    const space = expectDeclared(await api.post(`/v1/orgs/${orgId}/spaces`, { title: 'Described content' }), 'post', '/v1/orgs/{organizationId}/spaces', 201);
    const writer = contentWriter(sut);
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const written = await writer
      .apply(ada.id, space.id, [
        { operation: 'insert_files', files: [{ name: 'dot.png', ref: 'dot', base64: png, contentType: 'image/png' }] },
        { operation: 'insert_page', title: 'Guide', ref: 'guide', document: { markdown: '![dot](./dot)\n\nSee [the FAQ](./faq.md) and [the web](https://example.com).' } },
        { operation: 'insert_page', title: 'FAQ', ref: 'faq', document: { markdown: 'Answers.' } },
      ])
      .finally(() => writer.close());
    const [page] = written.changes.map((c) => c.page.id as string);
    const file = written.insertedFiles[0].id as string;
    const s = `/v1/spaces/${space.id}`;
    const r = `${s}/revisions/${written.revisionId}`;
    const t = '/v1/spaces/{spaceId}';
    const rt = `${t}/revisions/{revisionId}`;
    expectDeclared(await api.get(`${s}/content`), 'get', `${t}/content`, 200);
    expectDeclared(await api.get(`${s}/content/pages`), 'get', `${t}/content/pages`, 200);
    expectDeclared(await api.get(`${s}/content/files`), 'get', `${t}/content/files`, 200);
    expectDeclared(await api.get(`${s}/content/files/${file}`), 'get', `${t}/content/files/{fileId}`, 200);
    expectDeclared(await api.get(`${s}/content/files/${file}/backlinks`), 'get', `${t}/content/files/{fileId}/backlinks`, 200);
    expectDeclared(await api.get(`${s}/content/page/${page}?format=markdown`), 'get', `${t}/content/page/{pageId}`, 200);
    expectDeclared(await api.get(`${s}/content/page/${page}/links`), 'get', `${t}/content/page/{pageId}/links`, 200);
    expectDeclared(await api.get(`${s}/content/path/guide`), 'get', `${t}/content/path/{pagePath}`, 200);
    expectDeclared(await api.get(`${s}/links`), 'get', `${t}/links`, 200);
    expectDeclared(await api.get(r), 'get', rt, 200);
    expectDeclared(await api.get(`${r}/pages`), 'get', `${rt}/pages`, 200);
    expectDeclared(await api.get(`${r}/files`), 'get', `${rt}/files`, 200);
    expectDeclared(await api.get(`${r}/files/${file}`), 'get', `${rt}/files/{fileId}`, 200);
    expectDeclared(await api.get(`${r}/page/${page}`), 'get', `${rt}/page/{pageId}`, 200);
    expectDeclared(await api.get(`${r}/path/guide`), 'get', `${rt}/path/{pagePath}`, 200);
    expectDeclared(await api.get(`${r}/changes`), 'get', `${rt}/changes`, 200);

    // reusable contents (a Git import is what writes them)
    const reused = await seedReusableContents(sut, ada.id, space.id);
    const rr = `${s}/revisions/${reused.revisionId}`;
    expectDeclared(await api.get(`${s}/content/reusable-contents/${reused.beta}`), 'get', `${t}/content/reusable-contents/{reusableContentId}`, 200);
    expectDeclared(await api.get(`${rr}/reusable-contents/${reused.beta}`), 'get', `${rt}/reusable-contents/{reusableContentId}`, 200);
    expectDeclared(await api.get(`${rr}/reusable-contents/${reused.beta}/document`), 'get', `${rt}/reusable-contents/{reusableContentId}/document`, 200);
    const cr = expectDeclared(await api.post(`${s}/change-requests`, { subject: 'Reusable' }), 'post', `${t}/change-requests`, 201);
    expectDeclared(
      await api.get(`${s}/change-requests/${cr.id}/content/reusable-contents/${reused.beta}`),
      'get',
      `${t}/change-requests/{changeRequestId}/content/reusable-contents/{reusableContentId}`,
      200,
    );
    // the page reads of GitBook's renderer
    const rp = `${rr}/page/${reused.pageId}`;
    expectDeclared(await api.get(`${rp}/document?evaluated=deterministic-only&dereferenced=reusable-contents`), 'get', `${rt}/page/{pageId}/document`, 200);
    expectDeclared(await api.get(`${rp}/meta-links`), 'get', `${rt}/page/{pageId}/meta-links`, 200);
    expectDeclared(await api.get(`${s}/content/page/${reused.pageId}/meta-links`), 'get', `${t}/content/page/{pageId}/meta-links`, 200);
    const crPage = `${s}/change-requests/${cr.id}/content/page/${reused.pageId}/meta-links`;
    expectDeclared(await api.get(crPage), 'get', `${t}/change-requests/{changeRequestId}/content/page/{pageId}/meta-links`, 200);
  });

  it('change requests: lifecycle, content, comments, reviews, reviewers', async () => {
    const api = http(sut.baseUrl, ada.token);
    const space = expectDeclared(await api.post(`/v1/orgs/${orgId}/spaces`, { title: 'Described changes' }), 'post', '/v1/orgs/{organizationId}/spaces', 201);
    const writer = contentWriter(sut);
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const written = await writer
      .apply(ada.id, space.id, [
        { operation: 'insert_files', files: [{ name: 'dot.png', ref: 'dot', base64: png, contentType: 'image/png' }] },
        { operation: 'insert_page', title: 'Guide', document: { markdown: '![dot](./dot)\n\ng1\n\ng2' } },
      ])
      .finally(() => writer.close());
    const page = written.changes[0].page.id as string;
    const file = written.insertedFiles[0].id as string;
    const s = `/v1/spaces/${space.id}/change-requests`;
    const t = '/v1/spaces/{spaceId}/change-requests';
    const ct = `${t}/{changeRequestId}`;
    const cr = expectDeclared(await api.post(s, { subject: 'Described' }), 'post', t, 201);
    const c = `${s}/${cr.id}`;
    expectDeclared(await api.get(s), 'get', t, 200);
    expectDeclared(await api.get(`/v1/orgs/${orgId}/change-requests`), 'get', '/v1/orgs/{organizationId}/change-requests', 200);
    expectDeclared(await api.get(c), 'get', ct, 200);
    expectDeclared(await api.patch(c, { subject: 'Described again' }), 'patch', ct, 200);
    expectDeclared(
      await api.post(`${c}/content?compat=false`, { changes: [{ operation: 'update_page', page, document: { markdown: 'g1\n\nG2' } }] }),
      'post',
      `${ct}/content`,
      200,
    );
    expectDeclared(await api.get(`${c}/content`), 'get', `${ct}/content`, 200);
    expectDeclared(await api.get(`${c}/content/pages`), 'get', `${ct}/content/pages`, 200);
    expectDeclared(await api.get(`${c}/content/files`), 'get', `${ct}/content/files`, 200);
    expectDeclared(await api.get(`${c}/content/files/${file}`), 'get', `${ct}/content/files/{fileId}`, 200);
    expectDeclared(await api.get(`${c}/content/files/${file}/backlinks`), 'get', `${ct}/content/files/{fileId}/backlinks`, 200);
    expectDeclared(await api.get(`${c}/content/page/${page}`), 'get', `${ct}/content/page/{pageId}`, 200);
    expectDeclared(await api.get(`${c}/content/page/${page}/links`), 'get', `${ct}/content/page/{pageId}/links`, 200);
    expectDeclared(await api.get(`${c}/content/path/guide`), 'get', `${ct}/content/path/{pagePath}`, 200);
    expectDeclared(await api.get(`${c}/changes`), 'get', `${ct}/changes`, 200);
    const comment = expectDeclared(await api.post(`${c}/comments`, { body: { markdown: 'Looks good' }, page }), 'post', `${ct}/comments`, 200);
    expectDeclared(await api.get(`${c}/comments`), 'get', `${ct}/comments`, 200);
    expectDeclared(await api.get(`${c}/comments/${comment.id}`), 'get', `${ct}/comments/{commentId}`, 200);
    expectDeclared(await api.put(`${c}/comments/${comment.id}`, { addedReactions: ['👍'] }), 'put', `${ct}/comments/{commentId}`, 200);
    const reply = expectDeclared(await api.post(`${c}/comments/${comment.id}/replies`, { body: { markdown: 'Thanks' } }), 'post', `${ct}/comments/{commentId}/replies`, 200);
    expectDeclared(await api.get(`${c}/comments/${comment.id}/replies`), 'get', `${ct}/comments/{commentId}/replies`, 200);
    expectDeclared(await api.get(`${c}/comments/${comment.id}/replies/${reply.id}`), 'get', `${ct}/comments/{commentId}/replies/{commentReplyId}`, 200);
    expectDeclared(
      await api.put(`${c}/comments/${comment.id}/replies/${reply.id}`, { body: { markdown: 'Thanks!' } }),
      'put',
      `${ct}/comments/{commentId}/replies/{commentReplyId}`,
      200,
    );
    expectDeclared(await api.post(`${c}/requested-reviewers`, { users: [ada.id] }), 'post', `${ct}/requested-reviewers`, 200);
    expectDeclared(await api.get(`${c}/requested-reviewers`), 'get', `${ct}/requested-reviewers`, 200);
    const review = expectDeclared(await api.post(`${c}/reviews`, { status: 'approved', comment: { markdown: 'Approved' } }), 'post', `${ct}/reviews`, 201);
    expectDeclared(await api.get(`${c}/reviews`), 'get', `${ct}/reviews`, 200);
    expectDeclared(await api.get(`${c}/reviews/${review.id}`), 'get', `${ct}/reviews/{reviewId}`, 200);
    expectDeclared(await api.post(`${c}/update`, undefined), 'post', `${ct}/update`, 200);
    expectDeclared(await api.post(`${c}/merge`, undefined), 'post', `${ct}/merge`, 200);
    expectDeclared(await api.get(`/v1/spaces/${space.id}/search?query=g1`), 'get', '/v1/spaces/{spaceId}/search', 200);
    expectDeclared(await api.get(`/v1/orgs/${orgId}/search?query=g1`), 'get', '/v1/orgs/{organizationId}/search', 200);
    const rebuild = expectDeclared(await http(sut.baseUrl, sut.adminToken).post('/admin/search/rebuild', { spaces: [space.id] }), 'post', '/admin/search/rebuild', 202);
    expectDeclared(await http(sut.baseUrl, sut.adminToken).get(`/admin/search/rebuilds/${rebuild.id}`), 'get', '/admin/search/rebuilds/{runId}', 200);
    expectDeclared(await http(sut.baseUrl, sut.adminToken).post(`/admin/search/rebuilds/${rebuild.id}/cancel`, undefined), 'post', '/admin/search/rebuilds/{runId}/cancel', 200);
  });

  it('sites: settings, publishing, adaptive schema, share links', async () => {
    const api = http(sut.baseUrl, ada.token);
    const space = expectDeclared(await api.post(`/v1/orgs/${orgId}/spaces`, { title: 'Described site space' }), 'post', '/v1/orgs/{organizationId}/spaces', 201);
    const t = '/v1/orgs/{organizationId}/sites';
    const st = `${t}/{siteId}`;
    const site = expectDeclared(await api.post(`/v1/orgs/${orgId}/sites`, { title: 'Described site', spaces: [space.id] }), 'post', t, 201);
    const s = `/v1/orgs/${orgId}/sites/${site.id}`;
    expectDeclared(await api.get(`/v1/orgs/${orgId}/sites?published=false`), 'get', t, 200);
    expectDeclared(await api.get(s), 'get', st, 200);
    expectDeclared(await api.patch(s, { title: 'Described site again', visibility: 'share-link' }), 'patch', st, 200);
    expectDeclared(await api.post(`${s}/publish`), 'post', `${st}/publish`, 200);
    expectDeclared(await api.post(`${s}/unpublish`), 'post', `${st}/unpublish`, 200);
    expectDeclared(await api.get(`${s}/adaptive-schema`), 'get', `${st}/adaptive-schema`, 200);
    const jsonSchema = { type: 'object', properties: { isStaff: { type: 'boolean', description: 'Staff' } }, additionalProperties: false };
    expectDeclared(await api.put(`${s}/adaptive-schema`, { jsonSchema }), 'put', `${st}/adaptive-schema`, 200);
    expectDeclared(await api.get(`${s}/adaptive-schema/template-conditions`), 'get', `${st}/adaptive-schema/template-conditions`, 200);
    const link = expectDeclared(await api.post(`${s}/share-links`, { name: 'Described' }), 'post', `${st}/share-links`, 201);
    expectDeclared(await api.get(`${s}/share-links`), 'get', `${st}/share-links`, 200);
    expectDeclared(await api.patch(`${s}/share-links/${link.id}`, { active: false }), 'patch', `${st}/share-links/{shareLinkId}`, 200);
    expectDeclared(await http(sut.baseUrl, sut.adminToken).get('/admin/services/sites'), 'get', '/admin/services/sites', 200);
    expectDeclared(await http(sut.baseUrl, sut.adminToken).get('/admin/services/git-sync'), 'get', '/admin/services/git-sync', 200);
    expectDeclared(await api.get(`/v1/spaces/${space.id}/git/info`), 'get', '/v1/spaces/{spaceId}/git/info', 200);
    const redirect = expectDeclared(
      await api.post(`${s}/redirects`, { source: '/old', destination: { kind: 'external', url: 'https://example.com/new' } }),
      'post',
      `${st}/redirects`,
      201,
    );
    expectDeclared(await api.get(`${s}/redirects`), 'get', `${st}/redirects`, 200);
    expectDeclared(await api.patch(`${s}/redirects/${redirect.id}`, { permanent: true }), 'patch', `${st}/redirects/{siteRedirectId}`, 200);
    expectDeclared(await api.get(`${s}/redirect?source=/old`), 'get', `${st}/redirect`, 200);
    expectDeclared(await api.post(`${s}/search`, { query: 'described', scope: { mode: 'all' } }), 'post', `${st}/search`, 200);
    expectDeclared(await api.get(`${s}/publishing/auth`), 'get', `${st}/publishing/auth`, 200);
    expectDeclared(await api.post(`${s}/publishing/auth/regenerate`), 'post', `${st}/publishing/auth/regenerate`, 200);
    expect((await api.patch(s, { visibility: 'public' })).status).toBe(200);
    const url = (await api.post(`${s}/publish`)).body.urls.published as string;
    expectDeclared(await api.post('/v1/urls/published', { url }), 'post', '/v1/urls/published', 200);
    expect(expectDeclared(await api.post('/v1/urls/published', { url: `${url}/old` }), 'post', '/v1/urls/published', 200)).toEqual({
      target: 'external',
      site: site.id,
      redirect: 'https://example.com/new',
    });
  });

  it('OpenAPI specs, their versions and contents, and translation settings', async () => {
    const api = http(sut.baseUrl, ada.token);
    const o = `/v1/orgs/${orgId}`;
    const specs = '/v1/orgs/{organizationId}/openapi';
    const spec = `${specs}/{specSlug}`;
    expectDeclared(await api.post(`${o}/openapi`, { slug: 'described', source: { text: openapi30() } }), 'post', specs, 201);
    expectDeclared(await api.put(`${o}/openapi/put-described`, { source: { text: openapi31Yaml } }), 'put', spec, 201);
    const done = await processedSpec(api, orgId, 'described');
    expectDeclared(await api.put(`${o}/openapi/described`, { source: { text: openapi30() } }), 'put', spec, 200);
    await processedSpec(api, orgId, 'described');
    expectDeclared(await api.get(`${o}/openapi`), 'get', specs, 200);
    expectDeclared(await api.get(`${o}/openapi/described`), 'get', spec, 200);
    expectDeclared(await api.patch(`${o}/openapi/described`, { visibility: 'public' }), 'patch', spec, 200);
    expectDeclared(await api.get(`${o}/openapi/described/versions`), 'get', `${spec}/versions`, 200);
    expectDeclared(await api.get(`${o}/openapi/described/versions/latest`), 'get', `${spec}/versions/latest`, 200);
    expectDeclared(await api.get(`${o}/openapi/described/versions/latest/content`), 'get', `${spec}/versions/latest/content`, 200);
    expectDeclared(await api.get(`${o}/openapi/described/versions/latest/content/raw`), 'get', `${spec}/versions/latest/content/raw`, 200);
    expectDeclared(await api.get(`${o}/openapi/described/versions/${done.lastVersion}`), 'get', `${spec}/versions/{versionId}`, 200);
    expectDeclared(await api.get(`${o}/openapi/described/versions/${done.lastVersion}/content`), 'get', `${spec}/versions/{versionId}/content`, 200);
    const translations = '/v1/orgs/{organizationId}/translations';
    const settings = expectDeclared(await api.post(`${o}/translations`, { title: 'French', languages: ['fr'] }), 'post', translations, 201);
    expectDeclared(await api.get(`${o}/translations`), 'get', translations, 200);
    expectDeclared(await api.get(`${o}/translations/${settings.id}`), 'get', `${translations}/{translationSettingsId}`, 200);
    expectDeclared(await api.put(`${o}/translations/${settings.id}`, { title: 'French (France)', languages: ['fr-FR'] }), 'put', `${translations}/{translationSettingsId}`, 200);
  });

  // Longer than the tier: crawls the test site.
  it('website import (a system whose outbound guard reaches the loopback test site)', async () => {
    const site = await startTestWebsite();
    const own = await sharedOutboundSystem();
    try {
      const owner = await createUser(own, 'importer', 'openapi-doc.test');
      const ownOrg = await createOrganization(own, owner, 'Imported');
      const api = http(own.baseUrl, owner.token);
      const space = expectDeclared(await api.post(`/v1/orgs/${ownOrg}/spaces`, { title: 'Imported' }), 'post', '/v1/orgs/{organizationId}/spaces', 201);
      expectDeclared(
        await api.post(`/v1/spaces/${space.id}/content/import`, { source: 'website', url: `${site.origin}/docs/s1/p1/deep` }),
        'post',
        '/v1/spaces/{spaceId}/content/import',
        201,
      );
      const cr = (await api.post(`/v1/spaces/${space.id}/change-requests`, { subject: 'Import' })).body as { id: string };
      expectDeclared(
        await api.post(`/v1/spaces/${space.id}/change-requests/${cr.id}/content/import`, { source: 'website', url: `${site.origin}/docs/s2/p2/deep` }),
        'post',
        '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/import',
        201,
      );
      const runs = `/v1/org/${ownOrg}/imports`;
      const started = await api.post(runs, { source: { type: 'website', url: `${site.origin}/docs/s3/p1/deep` }, target: { space: space.id } });
      expectDeclared(started, 'post', '/v1/org/{organizationId}/imports', 201);
      const runId = (started.body as { id: string }).id;
      expectDeclared(await api.get(runs), 'get', '/v1/org/{organizationId}/imports', 200);
      expectDeclared(await api.get(`${runs}/${runId}`), 'get', '/v1/org/{organizationId}/imports/{importRunId}', 200);
      expectDeclared(await api.post(`${runs}/${runId}/cancel`, {}), 'post', '/v1/org/{organizationId}/imports/{importRunId}/cancel', 200);
      expectDeclared(await api.get(`/v1/spaces/${space.id}/embed?url=${encodeURIComponent(`${site.origin}/docs/`)}`), 'get', '/v1/spaces/{spaceId}/embed', 200);
    } finally {
      await site.close();
    }
  }, 180_000);

  it('sites: sections, section groups, site spaces, the structure and the published site', async () => {
    const api = http(sut.baseUrl, ada.token);
    const space = expectDeclared(await api.post(`/v1/orgs/${orgId}/spaces`, { title: 'Structured space' }), 'post', '/v1/orgs/{organizationId}/spaces', 201);
    const created = await api.post(`/v1/orgs/${orgId}/sites`, { title: 'Structured site' });
    expect(created.status).toBe(201);
    const s = `/v1/orgs/${orgId}/sites/${created.body.id}`;
    const st = '/v1/orgs/{organizationId}/sites/{siteId}';
    const section = expectDeclared(await api.post(`${s}/sections`, { spaceId: space.id }), 'post', `${st}/sections`, 201);
    const second = expectDeclared(await api.post(`${s}/sections`, { spaceId: space.id, title: 'Second' }), 'post', `${st}/sections`, 201);
    expectDeclared(await api.get(`${s}/sections`), 'get', `${st}/sections`, 200);
    expectDeclared(await api.patch(`${s}/sections/${section.id}`, { condition: 'visitor.claims.beta' }), 'patch', `${st}/sections/{siteSectionId}`, 200);
    expectDeclared(await api.post(`${s}/sections/${second.id}/move`, {}), 'post', `${st}/sections/{siteSectionId}/move`, 200);
    const group = expectDeclared(await api.post(`${s}/section-groups`, { title: 'Group' }), 'post', `${st}/section-groups`, 201);
    expectDeclared(await api.get(`${s}/section-groups`), 'get', `${st}/section-groups`, 200);
    expectDeclared(await api.patch(`${s}/section-groups/${group.id}`, { icon: 'book' }), 'patch', `${st}/section-groups/{siteSectionGroupId}`, 200);
    expectDeclared(await api.post(`${s}/section-groups/${group.id}/sections`, { sectionId: second.id }), 'post', `${st}/section-groups/{siteSectionGroupId}/sections`, 201);
    expectDeclared(await api.post(`${s}/section-groups/${group.id}/move`, {}), 'post', `${st}/section-groups/{siteSectionGroupId}/move`, 200);
    const siteSpace = expectDeclared(await api.post(`${s}/site-spaces`, { spaceId: space.id }), 'post', `${st}/site-spaces`, 201);
    expectDeclared(await api.get(`${s}/site-spaces`), 'get', `${st}/site-spaces`, 200);
    expectDeclared(await api.patch(`${s}/site-spaces/${siteSpace.id}`, { path: 'variant' }), 'patch', `${st}/site-spaces/{siteSpaceId}`, 200);
    expectDeclared(await api.post(`${s}/site-spaces/${siteSpace.id}/move`, {}), 'post', `${st}/site-spaces/{siteSpaceId}/move`, 200);
    expectDeclared(await api.get(`${s}/structure`), 'get', `${st}/structure`, 200);
    expectDeclared(await api.patch(`${s}/structure/sort`, { item: { type: 'site-section-group', id: group.id }, position: {} }), 'patch', `${st}/structure/sort`, 200);
    expect((await api.post(`${s}/publish`)).status).toBe(200);
    expectDeclared(await api.get(`${s}/published`), 'get', `${st}/published`, 200);
  });

  it("sites: a site's customization and a site space's overrides", async () => {
    const api = http(sut.baseUrl, ada.token);
    const space = expectDeclared(await api.post(`/v1/orgs/${orgId}/spaces`, { title: 'Branded space' }), 'post', '/v1/orgs/{organizationId}/spaces', 201);
    const site = expectDeclared(await api.post(`/v1/orgs/${orgId}/sites`, { title: 'Branded', spaces: [space.id] }), 'post', '/v1/orgs/{organizationId}/sites', 201);
    const s = `/v1/orgs/${orgId}/sites/${site.id}`;
    const st = '/v1/orgs/{organizationId}/sites/{siteId}';
    const settings = expectDeclared(await api.get(`${s}/customization`), 'get', `${st}/customization`, 200) as unknown as Json;
    expectDeclared(await api.put(`${s}/customization`, { ...settings, title: 'Branded docs' }), 'put', `${st}/customization`, 200);
    const siteSpace = ((await api.get(`${s}/site-spaces`)).body as { items: Array<{ id: string }> }).items[0].id;
    const c = `${s}/site-spaces/${siteSpace}/customization`;
    expectDeclared(await api.get(c), 'get', `${st}/site-spaces/{siteSpaceId}/customization`, 200);
    expectDeclared(await api.patch(c, { title: null, styling: { corners: 'straight' } }), 'patch', `${st}/site-spaces/{siteSpaceId}/customization`, 200);
  });

  it('dead letters (a consumer of content gave up on an event)', async () => {
    const admin = http(sut.baseUrl, sut.adminToken);
    const letter = await deadLetterInContent(sut);
    expectDeclared(await admin.get('/admin/services/content/dead-letters?limit=1000'), 'get', '/admin/services/{service}/dead-letters', 200);
    expectDeclared(await admin.post(`/admin/services/content/dead-letters/${letter.id}/replay`), 'post', '/admin/services/{service}/dead-letters/{deadLetterId}/replay', 200);
  });

  it('webhooks and their deliveries', async () => {
    const api = http(sut.baseUrl, ada.token);
    const w = '/v1/orgs/{organizationId}/webhooks';
    const hook = expectDeclared(await api.post(`/v1/orgs/${orgId}/webhooks`, { url: 'https://hooks.example.com/in', events: ['space.updated'] }), 'post', w, 201);
    const one = `/v1/orgs/${orgId}/webhooks/${hook.id}`;
    expectDeclared(await api.get(`/v1/orgs/${orgId}/webhooks`), 'get', w, 200);
    expectDeclared(await api.get(one), 'get', `${w}/{webhookId}`, 200);
    expectDeclared(await api.patch(one, { description: 'Described' }), 'patch', `${w}/{webhookId}`, 200);
    const space = await api.post(`/v1/orgs/${orgId}/spaces`, { title: 'Hooked' });
    await api.patch(`/v1/spaces/${space.body.id}`, { title: 'Hooked again' });
    const deliveries = await eventually(async () => {
      const list = expectDeclared(await api.get(`${one}/deliveries`), 'get', `${w}/{webhookId}/deliveries`, 200) as unknown as { items: Array<{ id: string }> };
      if (!list.items.length) throw new Error('no delivery yet');
      return list;
    }, 30000);
    const again = await api.post(`${one}/deliveries/${deliveries.items[0].id}/redeliver`);
    expectDeclared(again, 'post', `${w}/{webhookId}/deliveries/{deliveryId}/redeliver`, 202);
    expectDeclared(await http(sut.baseUrl, sut.adminToken).get('/admin/services/webhooks'), 'get', '/admin/services/webhooks', 200);
    expect((await api.delete(one)).status).toBe(205);
  });

  it('covered every operation that answers with a body', () => {
    expect(openapi.unchecked()).toEqual([]);
  });
});
