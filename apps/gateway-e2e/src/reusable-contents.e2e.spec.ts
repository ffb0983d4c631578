import { assertErrorBody, assertMatchesSpec, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace, unknownId } from './content-fixtures';
import { Json } from './content-model-fixtures';
import { openChangeRequest } from './change-request-fixtures';
import { createOrganization, createUser, TestUser } from './fixtures';
import { Client, http } from './http-client';
import { seedReusableContents, SeededReusableContents } from './reusable-content-fixtures';

describe('reusable contents over HTTP (0.202.0 reads)', () => {
  let sut: SystemUnderTest;
  let owner: TestUser;
  let admin: Client;
  let spaceId: string;
  let seeded: SeededReusableContents;

  beforeAll(async () => {
    sut = await sharedSystem();
    owner = await createUser(sut, 'reusable-owner');
    const orgId = await createOrganization(sut, owner, 'Reusable');
    admin = http(sut.baseUrl, owner.token);
    spaceId = (await createSpace(admin, orgId, { title: 'Reusable' })).id as string;
    seeded = await seedReusableContents(sut, owner.id, spaceId);
  }, 120_000);

  const C = () => `/v1/spaces/${spaceId}/content`;
  const R = (revisionId = seeded.revisionId) => `/v1/spaces/${spaceId}/revisions/${revisionId}`;

  test('a reusable content of the current revision, of a revision by id and its document: the official shapes', async () => {
    const current = await admin.get(`${C()}/reusable-contents/${seeded.beta}`);
    expect(current.status).toBe(200);
    assertMatchesSpec('0.202.0', 'get', '/spaces/{spaceId}/content/reusable-contents/{reusableContentId}', 200, current.body);
    expect(current.body).toEqual({ id: seeded.beta, title: 'Beta warning', document: expect.any(String), git: { oid: 'a'.repeat(40), path: '.gitbook/includes/beta.md' } });

    const inRevision = await admin.get(`${R()}/reusable-contents/${seeded.support}?metadata=false`);
    expect(inRevision.status).toBe(200);
    assertMatchesSpec('0.202.0', 'get', '/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}', 200, inRevision.body);
    expect(inRevision.body).toEqual({ id: seeded.support, title: 'Support', document: expect.any(String) });

    const document = await admin.get(`${R()}/reusable-contents/${seeded.beta}/document?evaluated=true&dereferenced=reusable-contents`);
    expect(document.status).toBe(200);
    assertMatchesSpec('0.202.0', 'get', '/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}/document', 200, document.body);
    expect(document.body.object).toBe('document');
    expect(JSON.stringify(document.body)).toContain('beta');

    // the page includes both, by id
    const page = await admin.get(`${C()}/page/${seeded.pageId}`);
    expect((page.body.document.nodes as Json[]).map((n) => n.data?.ref)).toEqual([
      { kind: 'reusable-content', reusableContent: seeded.beta },
      { kind: 'reusable-content', reusableContent: seeded.support },
    ]);
  });

  test("a change request's head holds the space's reusable contents", async () => {
    const cr = await openChangeRequest(admin, spaceId, 'Reusable contents');
    const res = await admin.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/reusable-contents/${seeded.beta}`);
    expect(res.status).toBe(200);
    assertMatchesSpec('0.202.0', 'get', '/spaces/{spaceId}/change-requests/{changeRequestId}/content/reusable-contents/{reusableContentId}', 200, res.body);
    expect(res.body.id).toBe(seeded.beta);
  });

  test('unknown ids and a reusable content the revision no longer holds: 404; an older revision still answers it; a bad query: 400', async () => {
    for (const path of [`${C()}/reusable-contents/${unknownId()}`, `${R()}/reusable-contents/${unknownId()}/document`, `${R(unknownId())}/reusable-contents/${seeded.beta}`]) {
      const res = await admin.get(path);
      expect(res.status).toBe(404);
      assertErrorBody(404, res.body);
    }
    const later = await seedReusableContents(sut, owner.id, spaceId, [{ source: '.gitbook/includes/support.md', markdown: 'Only support.\n' }]);
    expect(later.support).toBe(seeded.support);
    expect((await admin.get(`${C()}/reusable-contents/${seeded.beta}`)).status).toBe(404);
    expect((await admin.get(`${R()}/reusable-contents/${seeded.beta}`)).status).toBe(200);
    const bad = await admin.get(`${C()}/reusable-contents/${seeded.beta}?metadata=maybe`);
    expect(bad.status).toBe(400);
    assertErrorBody(400, bad.body);
  });

  test('the served OpenAPI document lists the four reads', async () => {
    const doc = (await http(sut.baseUrl).get('/openapi.json')).body as Json;
    const ops = Object.values(doc.paths as Record<string, Json>).flatMap((p) => Object.values(p).map((o) => (o as Json).operationId));
    expect(ops).toEqual(
      expect.arrayContaining(['getReusableContentById', 'getReusableContentInRevisionById', 'getReusableContentDocumentInRevisionById', 'getReusableContentInChangeRequestById']),
    );
  });
});
